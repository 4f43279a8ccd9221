package de.bwaldvogel.mongo.backend.h2;

import billing.tools.KeyFirst;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import java.lang.reflect.Field;
import java.util.List;

/**
 * The H2 backend whose unique indexes (`_id` first) also serve queries with further conditions
 * (see billing.tools.KeyFirst). In H2's package because its unique index can only be extended there.
 */
public final class KeyFirstH2Backend extends H2Backend {
    public KeyFirstH2Backend(String fileName) {
        super(fileName);
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new Database(databaseName, getMvStore(), getCursorRegistry());
    }

    private static final class Database extends H2Database {
        Database(String name, MVStore store, CursorRegistry cursors) {
            super(name, store, cursors);
        }

        @Override
        @SuppressWarnings("unchecked")
        protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
            Index<Object> created = super.openOrCreateUniqueIndex(collectionName, indexName, keys, sparse);
            try {
                Field map = H2UniqueIndex.class.getDeclaredField("mvMap");
                map.setAccessible(true);
                return new UniqueIndex((MVMap<KeyValue, Object>) map.get(created), indexName, keys, sparse);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("mongo-java-server's H2 index changed shape", e);
            }
        }
    }

    private static final class UniqueIndex extends H2UniqueIndex {
        UniqueIndex(MVMap<KeyValue, Object> map, String name, List<IndexKey> keys, boolean sparse) {
            super(map, name, keys, sparse);
        }

        @Override
        public synchronized boolean canHandle(Document query) {
            return super.canHandle(KeyFirst.narrow(keySet(), query));
        }

        @Override
        public synchronized Iterable<Object> getPositions(Document query) {
            return super.getPositions(KeyFirst.narrow(keySet(), query));
        }
    }
}
