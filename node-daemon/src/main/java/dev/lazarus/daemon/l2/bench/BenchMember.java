package dev.lazarus.daemon.l2.bench;

import dev.lazarus.daemon.l2.Endpoints;
import dev.lazarus.daemon.l2.L2Context;
import dev.lazarus.daemon.l2.L2Encoder;
import dev.lazarus.daemon.l2.L2Rebuilder;
import dev.lazarus.daemon.l2.L2Server;
import dev.lazarus.store.level.l2.L2Scheme;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A member process for the benchmark: it serves L2 like the daemon and, staying warm between runs as the daemon
 * would, runs commands read from stdin, one line of output each (two for {@code tcp-sink}):
 *
 * <pre>
 *   members A:P,B:P,...     the node list (known once every member has started)
 *   encode V | rebuild V W  the L2 operations, answered with their one-line report; W rebuild workers
 *   rebuild-data V W        the rank files only, as a restart does before re-encoding the parity in the background
 *   wipe V                  delete this node's version directory: a lost node
 *   tcp-sink FILE           listen on this member's address, answer with it, then copy one connection into FILE
 *   tcp-send V ADDR:PORT    send this node's payload of V to a sink
 *   quit
 * </pre>
 *
 * Failures are answered with a line starting {@code l2-bench: error:}.
 */
final class BenchMember {
    private BenchMember() {
    }

    static void run(Map<String, String> options) throws IOException {
        L2Context serving = context(options).bind(L2Bench.required(options, "--bind")).conclude();
        int self = Integer.parseInt(L2Bench.required(options, "--self"));
        int setSize = Integer.parseInt(L2Bench.required(options, "--set-size"));
        try (L2Server server = L2Server.start(serving)) {
            reply("l2-bench: member address=" + Endpoints.format(server.address()));
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            L2Encoder encoder = null;
            L2Context members = null;
            for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
                String[] words = line.trim().split(" ");
                try {
                    switch (words[0]) {
                        case "members" -> {
                            members = context(options).members(List.of(words[1].split(","))).self(self)
                                    .setSize(setSize);
                            encoder = new L2Encoder(members.conclude());
                            reply("l2-bench: members=" + words[1]);
                        }
                        case "encode" -> reply(encoder.encode(Long.parseLong(words[1])).describe());
                        case "rebuild" -> reply(rebuilder(members, words[2]).rebuild(Long.parseLong(words[1]))
                                .describe());
                        case "rebuild-data" -> reply(rebuilder(members, words[2])
                                .rebuildData(Long.parseLong(words[1])).describe());
                        case "wipe" -> {
                            serving.l1().deleteVersion(Long.parseLong(words[1]));
                            reply("l2-bench: wiped version=" + words[1]);
                        }
                        case "tcp-sink" -> sink(server.address(), Path.of(words[1]));
                        case "tcp-send" -> reply("l2-bench: sent bytes=" + L2Bench.send(serving.l1(),
                                Long.parseLong(words[1]), Endpoints.parse(words[2])));
                        default -> reply("l2-bench: error: unknown command '" + line + "'");
                    }
                } catch (IOException | RuntimeException e) {
                    reply("l2-bench: error: " + words[0] + ": " + e.getMessage());
                }
            }
        }
    }

    private static L2Rebuilder rebuilder(L2Context members, String workers) {
        return new L2Rebuilder(members.rebuildWorkers(Integer.parseInt(workers)).conclude());
    }

    private static L2Context context(Map<String, String> options) {
        return new L2Context().job(L2Bench.required(options, "--job"))
                .l1Root(Path.of(L2Bench.required(options, "--l1")))
                .secretFile(Path.of(L2Bench.required(options, "--secret")))
                .scheme(L2Scheme.parse(options.getOrDefault("--scheme", "xor")))
                .log(line -> System.err.println(line));
    }

    private static void sink(InetSocketAddress member, Path file) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()
                .bind(new InetSocketAddress(member.getAddress(), 0))) {
            reply("l2-bench: sink address=" + Endpoints.format((InetSocketAddress) server.getLocalAddress()));
            reply(L2Bench.receive(server, file));
        }
    }

    private static void reply(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
