package dev.lockscope.agent;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** A fixture class defined from its instrumented bytes (every other class from the test's loader), and calls of it. */
final class InstrumentedFixture {
    private InstrumentedFixture() {
    }

    static Class<?> load(String name, byte[] bytes) throws ClassNotFoundException {
        return new ClassLoader(InstrumentedFixture.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
                if (n.equals(name)) {
                    synchronized (getClassLoadingLock(n)) {
                        Class<?> c = findLoadedClass(n);
                        return c != null ? c : defineClass(n, bytes, 0, bytes.length);
                    }
                }
                return super.loadClass(n, resolve);
            }
        }.loadClass(name);
    }

    /** Calls the fixture's public method of that name; what it throws comes out as it is. */
    static Object call(Class<?> fixture, Object target, String method, Object... args) throws Throwable {
        for (Method m : fixture.getMethods()) {
            if (m.getName().equals(method)) {
                try {
                    return m.invoke(target, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
        }
        throw new AssertionError("no method " + method);
    }
}
