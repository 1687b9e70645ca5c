package dev.lazarus.easycrash.heap;

/**
 * The NVM directory's file system cannot hold this rank's heap. Found when the heap file is created, by reserving its
 * whole size (posix_fallocate): a mapping of a file with holes on a full file system would fault on some later
 * store, far from any cause a user could read. The message is one line naming the directory, the heap's size and
 * the C library's reason.
 */
public final class NvmDirectoryFullException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public NvmDirectoryFullException(String message) {
        super(message);
    }
}
