package dev.lazarus.store;

import java.util.regex.Pattern;

/**
 * The one rule for job ids. A job id names a directory under every level root (NVM, L1, L2, L3), so it must be a
 * single plain path component: 1 to 64 of {@code [A-Za-z0-9_.-]}, and not {@code .} or {@code ..}, which would name
 * the root itself or its parent. Every path built from a job id is built from an id this class accepted.
 */
public final class JobId {
    /** The longest job id. */
    public static final int MAX_LENGTH = 64;
    /** The rule in words, as error messages state it. */
    public static final String RULE = "1 to " + MAX_LENGTH + " of [A-Za-z0-9_.-], not . or ..";

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9_.-]{1," + MAX_LENGTH + "}");

    private JobId() {
    }

    /**
     * @param job a job id from the user, a setting or a file
     * @return true if {@code job} follows the rule
     */
    public static boolean valid(String job) {
        return job != null && ALLOWED.matcher(job).matches() && !job.equals(".") && !job.equals("..");
    }

    /**
     * @param job a job id from the user, a setting or a file
     * @return {@code job}, valid
     * @throws IllegalArgumentException one line naming the id and the rule
     */
    public static String check(String job) {
        if (!valid(job)) {
            throw new IllegalArgumentException("job id '" + job + "' must be " + RULE);
        }
        return job;
    }
}
