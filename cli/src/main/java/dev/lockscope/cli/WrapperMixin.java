package dev.lockscope.cli;

import dev.lockscope.analysis.blame.ChainView;
import picocli.CommandLine.Option;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** {@code --wrapper}: the program's own lock helpers, hidden at the top of chains like the built-in ones. */
final class WrapperMixin {
    @Option(names = "--wrapper", paramLabel = "REGEX",
            description = "Also skip, when naming waiter and owner methods and chains, the frames at the top of a "
                    + "chain (package.Class.method:line) that REGEX finds a match in: the program's own lock helpers, "
                    + "beside the built-in ones (methods named lock, unlock, close, acquire, release, await, signal, ... "
                    + "right below the JDK's lock code).")
    String wrapper;

    /** The chain view of {@code --raw} with the wrappers added. */
    ChainView view(boolean raw) {
        if (wrapper == null) {
            return ChainView.of(raw);
        }
        try {
            return ChainView.of(raw).withWrappers(Pattern.compile(wrapper));
        } catch (PatternSyntaxException e) {
            throw new UserError("--wrapper: not a regular expression: " + e.getDescription() + " in '" + wrapper + "'");
        }
    }
}
