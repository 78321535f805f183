import Foundation

/// How many sealed values of one column a key-encryption key seals.
public struct SealedValueCount: Sendable, Equatable {
    /// The table and column (`webhook_endpoints.secret_encrypted`).
    public var column: String
    /// The key's id (``SecretBox/keyId(of:)``), or `legacy` for values sealed before key ids existed.
    public var keyId: String
    /// How many values.
    public var count: Int

    public init(column: String, keyId: String, count: Int) {
        self.column = column
        self.keyId = keyId
        self.count = count
    }
}

/// The sealed values of every tenant's rows and their rotation to the current key-encryption key, over the
/// shared ``PostgresDatabase``.
public struct PostgresKeyRotation: PostgresRepository {
    let database: PostgresDatabase
}

extension PostgresKeyRotation {
    /// The key id ``sealedValueCounts()`` reports for values sealed before key ids existed.
    public static let legacyKeyId = "legacy"

    /// How many sealed values each key-encryption key seals, per column (every tenant's rows).
    public func sealedValueCounts() async throws -> [SealedValueCount] {
        try await system { c in
            var counts: [SealedValueCount] = []
            for column in SealedColumn.all {
                counts += try await c.query(column.usage).rows.map {
                    SealedValueCount(
                        column: column.name, keyId: try $0.string("key_id"), count: Int(try $0.int64("n")))
                }
            }
            return counts
        }
    }

    /// Seals again under the current key every value sealed by another key (or before key ids existed),
    /// column by column, in transactions of at most `batchSize` rows. Rows are locked while they are
    /// resealed and rows another transaction holds are skipped, so servers keep serving and a concurrent
    /// write is never overwritten; running it again continues where it stopped and changes nothing once every
    /// value uses the current key. Returns how many values were resealed per column (in
    /// ``SealedColumn/all`` order); `progress` hears each batch (column, values resealed so far).
    public func rotateSealedValues(
        batchSize: Int, progress: @Sendable (_ column: String, _ resealed: Int) -> Void = { _, _ in }
    ) async throws -> [(column: String, resealed: Int)] {
        precondition(batchSize > 0, "the batch size must be positive")
        var totals: [(column: String, resealed: Int)] = []
        for column in SealedColumn.all {
            var total = 0
            while true {
                let resealed = try await resealBatch(column, limit: batchSize)
                if resealed == 0 { break }
                total += resealed
                progress(column.name, total)
            }
            totals.append((column.name, total))
        }
        return totals
    }

    /// Reseals the values of one batch of rows of `column`; returns how many values changed.
    private func resealBatch(_ column: SealedColumn, limit: Int) async throws -> Int {
        let secrets = self.secrets
        let pattern = "v2:\(secrets.currentKeyId):%"
        return try await system { c in
            let rows = try await c.query(column.pendingBatch, [.text(pattern), .int(Int64(limit))]).rows
            var resealed = 0
            for row in rows {
                let keys = try column.keys.indices.map { try row.string("k\($0)") }
                let sealed = try row.string("sealed")
                let value: String
                if column.isMap {
                    var fields = try StoreJSON.decode([String: String].self, sealed)
                    for (name, field) in fields where !secrets.isSealedByCurrentKey(field) {
                        fields[name] = try secrets.reseal(field, context: column.context(keys, name))
                        resealed += 1
                    }
                    value = try StoreJSON.encode(fields)
                } else {
                    value = try secrets.reseal(sealed, context: column.context(keys, nil))
                    resealed += 1
                }
                try await c.query(column.update, [.text(value)] + keys.map { .text($0) })
            }
            return resealed
        }
    }
}
