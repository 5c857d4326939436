package dev.lockscope.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "dump", description = "TODO")
final class DumpCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("dump is not implemented yet");
    }
}
