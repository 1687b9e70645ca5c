package dev.lazarus.daemon.l2.wire;

import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-job secret the node daemons of a job authenticate each other with: the bytes of a file readable by its
 * owner only, at least {@value #MIN_BYTES} of them (256 bits, HMAC-SHA256's key strength). The launcher writes it, for
 * instance with {@code head -c 32 /dev/urandom}.
 */
public final class JobSecret {
    public static final int MIN_BYTES = 32;
    public static final int MAX_BYTES = 4096;
    private static final String HMAC = "HmacSHA256";
    private static final Set<PosixFilePermission> GROUP_OR_OTHER = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private final SecretKeySpec key;

    private JobSecret(byte[] bytes) {
        this.key = new SecretKeySpec(bytes, HMAC);
    }

    /**
     * Writes a new random secret of {@value #MIN_BYTES} bytes, mode 0600, replacing the file atomically: what the
     * launcher gives one job's L2 services.
     */
    public static void create(Path file) throws IOException {
        byte[] bytes = new byte[MIN_BYTES];
        new SecureRandom().nextBytes(bytes);
        SecureFiles.writeAtomically(file, bytes);
    }

    /**
     * Reads a secret file, refusing one others could read or change, a symbolic link, or one of the wrong size.
     *
     * @throws IOException one line naming the file and what is wrong with it
     */
    public static JobSecret load(Path file) throws IOException {
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new IOException("secret file missing: path=" + file);
        }
        if (!attributes.isRegularFile()) {
            throw new IOException("secret file is not a regular file: path=" + file);
        }
        Set<PosixFilePermission> open = EnumSet.copyOf(attributes.permissions());
        open.retainAll(GROUP_OR_OTHER);
        if (!open.isEmpty()) {
            throw new IOException("secret file must be accessible by its owner only (chmod 600): path=" + file
                    + " mode=" + PosixFilePermissions.toString(attributes.permissions()));
        }
        if (attributes.size() < MIN_BYTES || attributes.size() > MAX_BYTES) {
            throw new IOException("secret file size must be " + MIN_BYTES + " to " + MAX_BYTES + " bytes: path="
                    + file + " size=" + attributes.size());
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) attributes.size());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                // read until full or the file shrank
            }
        }
        if (bytes.hasRemaining()) {
            throw new IOException("secret file changed while read: path=" + file);
        }
        return of(bytes.array());
    }

    /**
     * @param bytes the secret, at least {@value #MIN_BYTES} bytes; copied
     * @throws IllegalArgumentException if it is too short or too long
     */
    private static JobSecret of(byte[] bytes) {
        if (bytes.length < MIN_BYTES || bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("secret size must be " + MIN_BYTES + " to " + MAX_BYTES
                    + " bytes: size=" + bytes.length);
        }
        return new JobSecret(bytes.clone());
    }

    /**
     * @param role        the prover's role label (see {@link WireLayout})
     * @param job         the job id
     * @param clientNonce the client's nonce
     * @param serverNonce the server's nonce
     * @return HMAC-SHA256(secret, role | job | client nonce | server nonce)
     */
    byte[] proof(String role, byte[] job, byte[] clientNonce, byte[] serverNonce) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            mac.update(role.getBytes(StandardCharsets.US_ASCII));
            mac.update((byte) 0);
            mac.update(job);
            mac.update(clientNonce);
            mac.update(serverNonce);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable: " + e.getMessage(), e);
        }
    }

    /** Compares proofs in time independent of where they differ. */
    static boolean same(byte[] expected, byte[] actual) {
        return MessageDigest.isEqual(expected, actual);
    }

    @Override
    public String toString() {
        return "JobSecret[hidden]";
    }
}
