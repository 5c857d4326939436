package dev.lockscope.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "attach", description = "TODO")
final class AttachCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("attach is not implemented yet");
    }
}
