package dev.lockscope.cli;

import picocli.CommandLine;

final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Version.class.getPackage().getImplementationVersion();
        return new String[] {"lockscope " + (v == null ? "dev" : v)};
    }
}
