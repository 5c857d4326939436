package dev.lockscope.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "demo", description = "TODO")
final class DemoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("demo is not implemented yet");
    }
}
