package dev.lockscope.e2e;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;

/** Prints the JVM's compiler directives as {@code jcmd PID Compiler.directives_print} would: what an agent added. */
public final class DirectivesMain {
    private DirectivesMain() {
    }

    public static void main(String[] args) throws Exception {
        Object printed = ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesPrint",
                new Object[]{new String[0]}, new String[]{String[].class.getName()});
        System.out.println(printed);
    }
}
