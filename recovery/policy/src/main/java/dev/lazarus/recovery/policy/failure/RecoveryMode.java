package dev.lazarus.recovery.policy.failure;

import java.util.Locale;

/** How the coordinator chooses a path ({@code --recovery}). */
public enum RecoveryMode {
    /** The cheapest expected path. */
    AUTO,
    /** NVM restart whenever NVM can serve it, else the cheapest rollback. */
    NVM,
    /** Never an NVM restart: the cheapest rollback. */
    ROLLBACK;

    /**
     * @throws IllegalArgumentException one line naming the accepted values
     */
    public static RecoveryMode parse(String text) {
        for (RecoveryMode mode : values()) {
            if (mode.name().equalsIgnoreCase(text)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("--recovery must be auto, nvm or rollback (got '" + text + "')");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
