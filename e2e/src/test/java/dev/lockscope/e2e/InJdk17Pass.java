package dev.lockscope.e2e;

import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A long scenario of the analysis on a real or demo application that runs in the test suite's JDK 17 pass only,
 * its {@link InJdk25Pass} siblings in the JDK 25 pass: CI's two passes together run each once, on recordings of
 * both JDKs, and the suite stays within its time. Tests of the agent itself (hooks, robustness, virtual threads,
 * attach, output files) run on both.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@EnabledForJreRange(max = JRE.JAVA_20, disabledReason = "a long analysis scenario: the suite's JDK 17 pass runs it")
@interface InJdk17Pass {
}
