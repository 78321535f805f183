import Foundation

/// The context each kind of sealed value is bound to (``SecretBox`` authenticates it with the value), named
/// once for the writers, the readers, key rotation (``SealedColumn``) and the database diagnosis. Ids are
/// given as PostgreSQL prints them (`uuid::text` is lowercase).
enum SealContext {
    /// A provider account's secret credential field.
    static func accountCredential(_ accountId: String, field: String) -> String { "\(accountId)/\(field)" }
    static func accountCredential(_ accountId: UUID, field: String) -> String {
        accountCredential(accountId.uuidString.lowercased(), field: field)
    }
    /// A webhook endpoint's signing secret, current or replaced by a rotation (moved as sealed).
    static func webhook(_ endpointId: String) -> String { "webhook/\(endpointId)" }
    /// A provider access token of an account.
    static func token(_ accountId: String, kind: String) -> String { "token/\(accountId)/\(kind)" }
    static func token(_ accountId: UUID, kind: String) -> String {
        token(accountId.uuidString.lowercased(), kind: kind)
    }
    /// A stored credential's provider token.
    static func credential(_ id: String) -> String { "credential/\(id)" }
    /// A payment operation's replay data.
    static func operation(_ id: String) -> String { "operation/\(id)" }
}
