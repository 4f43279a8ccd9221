package billing.tools;

import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.backend.memory.index.MemoryUniqueIndex;
import de.bwaldvogel.mongo.bson.Document;

import java.util.List;

/** The memory backend whose unique indexes (`_id` first) also serve queries with further conditions (see KeyFirst). */
public final class KeyFirstMemoryBackend extends MemoryBackend {
    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new Database(databaseName, getCursorRegistry());
    }

    private static final class Database extends MemoryDatabase {
        Database(String name, CursorRegistry cursors) {
            super(name, cursors);
        }

        @Override
        protected Index<Integer> openOrCreateUniqueIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
            return new UniqueIndex(indexName, keys, sparse);
        }
    }

    private static final class UniqueIndex extends MemoryUniqueIndex {
        UniqueIndex(String name, List<IndexKey> keys, boolean sparse) {
            super(name, keys, sparse);
        }

        @Override
        public synchronized boolean canHandle(Document query) {
            return super.canHandle(KeyFirst.narrow(keySet(), query));
        }

        @Override
        public synchronized Iterable<Integer> getPositions(Document query) {
            return super.getPositions(KeyFirst.narrow(keySet(), query));
        }
    }
}
