/**
 * The file primitives every part of the store opens files with: no symbolic links followed ({@code O_NOFOLLOW}),
 * files created 0600 and directories 0700, a directory owned by someone else refused, sizes read from a file bounded,
 * and writes published atomically ({@link dev.lazarus.store.files.SecureFiles}); the libc calls behind them
 * ({@link dev.lazarus.store.files.NativeFiles}).
 */
package dev.lazarus.store.files;
