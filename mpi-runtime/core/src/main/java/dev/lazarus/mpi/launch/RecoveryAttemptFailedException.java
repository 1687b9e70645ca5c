package dev.lazarus.mpi.launch;

/**
 * A recovery attempt failed in a way the rank recorded durably before throwing this: for example an NVM restart
 * whose resumed run threw. The next launch of the job takes another path (it rolls back), so {@link RankMain}
 * reports it in one line, records {@link RankMain#RELAUNCH} as the rank's status and aborts the job; the launcher
 * then relaunches the job once by itself.
 */
public class RecoveryAttemptFailedException extends RuntimeException {

    /**
     * @param message one line: what failed and what the next launch does
     * @param cause   the failure of the attempt
     */
    public RecoveryAttemptFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
