package billing.tools;

import de.bwaldvogel.mongo.bson.Document;

import java.util.Set;

/**
 * mongo-java-server answers a query from a unique index only when the query names exactly the
 * index's keys: `{_id: x}` is a lookup, but `{_id: x, version: 3}` (every conditional update we
 * write) scans the whole collection. MongoDB itself uses the `_id` index for both. Narrowed to the
 * index's keys, such a query finds its candidates through the index; the collection still matches
 * each candidate against the whole query, so the answer is the same, only found faster.
 */
public final class KeyFirst {
    private KeyFirst() {
    }

    /** The part of `query` the index can answer, or the query itself when it lacks one of the keys. */
    public static Document narrow(Set<String> indexKeys, Document query) {
        if (query.keySet().equals(indexKeys) || !query.keySet().containsAll(indexKeys)) {
            return query;
        }
        Document narrowed = new Document();
        for (String key : indexKeys) {
            narrowed.put(key, query.get(key));
        }
        return narrowed;
    }
}
