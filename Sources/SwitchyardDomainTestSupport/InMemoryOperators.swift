import Foundation
import SwitchyardCore
import Synchronization

/// Operators kept in memory with the PostgreSQL store's contracts: names unique without case, tokens kept
/// only as their hash, a rotated or revoked token refused at once.
public final class InMemoryOperators: OperatorRepository, Sendable {
    private let state = Mutex<[(value: Operator, hash: Int)]>([])
    private let denials = Mutex<[String]>([])
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// The routes refused so far, as `permission method route`.
    public var denied: [String] { denials.withLock { $0 } }

    public func createOperator(name: String, role: OperatorRole, expiresAt: Date?, secret: String, actor: String)
        async throws -> Operator
    {
        try state.withLock { all in
            guard !all.contains(where: { $0.value.name.lowercased() == name.lowercased() }) else {
                throw CoreError(.operatorNameTaken, "an operator named '\(name)' exists already", param: "name")
            }
            let created = Operator(
                id: UUID(), name: name, role: role, tokenPrefix: String(secret.prefix(11)), createdAt: now(),
                expiresAt: expiresAt)
            all.append((created, secret.hashValue))
            return created
        }
    }

    public func operators() async throws -> [Operator] { state.withLock { $0.map(\.value) } }

    public func rotateOperator(id: UUID, secret: String, actor: String) async throws -> Operator {
        try state.withLock { all in
            guard let index = all.firstIndex(where: { $0.value.id == id }) else { throw CoreError.notFound("operator") }
            guard all[index].value.revokedAt == nil else {
                throw CoreError(.operatorRevoked, "the operator is revoked; add a new one instead")
            }
            all[index].value.tokenPrefix = String(secret.prefix(11))
            all[index].hash = secret.hashValue
            return all[index].value
        }
    }

    public func revokeOperator(id: UUID, actor: String) async throws -> Operator {
        try state.withLock { all in
            guard let index = all.firstIndex(where: { $0.value.id == id }) else { throw CoreError.notFound("operator") }
            if all[index].value.revokedAt == nil { all[index].value.revokedAt = now() }
            return all[index].value
        }
    }

    public func authenticateOperator(secret: String) async throws -> Operator? {
        let at = now()
        return state.withLock { all in all.first { $0.hash == secret.hashValue }?.value }.flatMap {
            $0.isUsable(at: at) ? $0 : nil
        }
    }

    public func auditAction(tenant: UUID?, action: String, target: String, details: [String: String]) async throws {
        denials.withLock { $0.append("\(action) \(target)") }
    }

    public func auditDenial(permission: OperatorPermission, method: String, route: String) async throws {
        denials.withLock { $0.append("\(permission.rawValue) \(method) \(route)") }
    }
}
