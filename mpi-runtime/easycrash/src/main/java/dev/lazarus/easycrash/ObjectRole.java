package dev.lazarus.easycrash;

/** What a data object is to EasyCrash (paper §5.1). */
public enum ObjectRole {
    /**
     * Lives through the main loop and is written there: a candidate critical object. After a crash it is read back
     * from NVM as it is.
     */
    CANDIDATE,
    /**
     * Read-only in the main loop, or temporary: re-created by the application's initialization after a crash. It is
     * still allocated in the heap so the crash emulator sees its cache traffic.
     */
    REINITIALIZED
}
