package dev.lockscope.cli;

/** A problem the user can fix (bad file, bad pid, bad option): printed as one line, exit code 2. */
public final class UserError extends RuntimeException {
    public UserError(String message) {
        super(message);
    }
}
