import Foundation
import SwitchyardCore
import SwitchyardCrypto

extension PostgresDisputes {
    /// The ids of ledger entries (`bt_…`).
    static let ledgerIds = IdentifierGenerator(randomBytes: { SecureRandom.bytes($0) })

    /// The statement that appends `entry` (run in the dispute step's transaction).
    static func inserting(_ entry: LedgerEntry) -> PGStatement {
        PGStatement(
            """
            INSERT INTO ledger_entries
                (id, tenant_id, account_id, payment_id, source, type, amount, currency, livemode, created_at)
            VALUES ($1, $2::uuid, $3::uuid, $4, $5, $6, $7::bigint, $8, $9::boolean, $10::timestamptz)
            """,
            [
                .text(entry.id), .uuid(entry.tenantId), .uuid(entry.accountId), PGValue(entry.paymentId),
                .text(entry.source), .text(entry.kind.rawValue), .int(entry.amount), .text(entry.currency),
                .bool(entry.livemode), .timestamp(entry.createdAt),
            ])
    }

    public func ledgerEntries(tenant: UUID, filter: LedgerFilter, page: PageRequest) async throws -> Page<LedgerEntry> {
        try await tenantScoped(tenant) { c in
            var scope = ["tenant_id = $1::uuid"]
            var params: [PGValue] = [.uuid(tenant)]
            if let paymentId = filter.paymentId {
                params.append(.text(paymentId))
                scope.append("payment_id = $\(params.count)")
            }
            if let source = filter.source {
                params.append(.text(source))
                scope.append("source = $\(params.count)")
            }
            let rows = try await PageQuery(table: "ledger_entries", statusColumn: "type", livemodeColumn: "livemode")
                .rows(c, page, scope: scope, params: params)
            return page.page(try rows.map(Self.ledgerEntry))
        }
    }

    static func ledgerEntry(_ row: PGRow) throws -> LedgerEntry {
        let type = try row.string("type")
        guard let kind = LedgerEntry.Kind(rawValue: type) else {
            throw PGError.decoding("type", "unknown ledger entry type \(type)")
        }
        return LedgerEntry(
            id: try row.string("id"), tenantId: try row.uuid("tenant_id"), accountId: try row.uuid("account_id"),
            paymentId: row.optionalString("payment_id"), source: try row.string("source"), kind: kind,
            amount: try row.int64("amount"), currency: try row.string("currency"), livemode: try row.bool("livemode"),
            createdAt: try row.date("created_at"))
    }
}
