package dev.lockscope.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "record", description = "TODO")
final class RecordCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("record is not implemented yet");
    }
}
