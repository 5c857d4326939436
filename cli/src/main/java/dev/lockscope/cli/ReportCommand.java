package dev.lockscope.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "report", description = "TODO")
final class ReportCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("report is not implemented yet");
    }
}
