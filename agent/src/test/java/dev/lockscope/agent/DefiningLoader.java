package dev.lockscope.agent;

/** Loads one class from given (instrumented) bytes, every other class from the test's loader. */
final class DefiningLoader {
    private DefiningLoader() {
    }

    static Class<?> load(String name, byte[] bytes) throws ClassNotFoundException {
        return new ClassLoader(DefiningLoader.class.getClassLoader()) {
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
}
