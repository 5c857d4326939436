package dev.lockscope.e2e;

import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A long scenario of the analysis on a real or demo application that runs in the test suite's JDK 25 pass only (JDK 21 and later),
 * its {@link InJdk17Pass} siblings in the JDK 17 pass: CI's two passes together run each once, on recordings of
 * both JDKs, and the suite stays within its time. Tests of the agent itself (hooks, robustness, attach, output
 * files) run in both. Tests whose child JVMs run on a JDK of their own (the virtual-thread tests profile JDK 21
 * and 25 whichever JDK runs the suite) would do the same work twice: they are in this pass only.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@EnabledForJreRange(min = JRE.JAVA_21, disabledReason = "a long analysis scenario: the suite's JDK 25 pass runs it")
@interface InJdk25Pass {
}
