package billing.tools;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.h2.KeyFirstH2Backend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Starts mongo-java-server on 127.0.0.1 for development and tests.
 *
 * Usage: MongoServerLauncher --port 27017 --backend memory|h2 [--file data.mv] [--pid-file f] [--version 3.6|4.0|5.0]
 */
public final class MongoServerLauncher {

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        int port = Integer.parseInt(options.getOrDefault("port", "27017"));
        String host = options.getOrDefault("host", "127.0.0.1");
        MongoBackend backend = backend(options);
        String version = options.get("version");
        if (version != null) {
            backend.version(serverVersion(version));
        }

        MongoServer server = new MongoServer(backend);
        server.bind(host, port);
        writePid(options.get("pid-file"));

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown(); // closes the backend, which flushes an H2 store
            stopped.countDown();
        }));
        System.out.printf("mongo-java-server listening on %s:%d (backend %s)%n",
            host, port, options.getOrDefault("backend", "memory"));
        stopped.await();
    }

    private static MongoBackend backend(Map<String, String> options) {
        String kind = options.getOrDefault("backend", "memory");
        switch (kind) {
            case "memory":
                return new KeyFirstMemoryBackend();
            case "h2":
                String file = options.get("file");
                if (file == null) {
                    throw new IllegalArgumentException("--backend h2 needs --file <path>");
                }
                return new KeyFirstH2Backend(file);
            default:
                throw new IllegalArgumentException("unknown backend: " + kind);
        }
    }

    private static MongoVersion serverVersion(String version) {
        switch (version) {
            case "3.6": return ServerVersion.MONGO_3_6;
            case "4.0": return ServerVersion.MONGO_4_0;
            case "5.0": return ServerVersion.MONGO_5_0;
            default: throw new IllegalArgumentException("unsupported version: " + version);
        }
    }

    private static void writePid(String pidFile) throws IOException {
        if (pidFile == null) {
            return;
        }
        Path path = Path.of(pidFile);
        Files.writeString(path, Long.toString(ProcessHandle.current().pid()));
        path.toFile().deleteOnExit();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got: " + args[i]);
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }
}
