import ArgumentParser
import Foundation
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardStore

/// `switchyard operators add|list|rotate|revoke`: the team's named operators, straight in the database
/// (so the first admin can be made before any server runs), the same as `/admin/v1/operators`.
struct OperatorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operators",
        abstract: "Add, list, rotate and revoke named operators.",
        discussion: """
            Connects with --database-url (or SWITCHYARD_DATABASE_URL) as the server's own role, with the \
            key-encryption key `serve` uses. A token is printed once, when it is made or rotated; only its hash \
            is stored. Every change is audited with the actor `cli`.
            """,
        subcommands: [Add.self, List.self, Rotate.self, Revoke.self])

    /// The audit log's actor of changes made here.
    static let actor = "cli"

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an operator and print its token once.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The operator's name (unique).") var name: String
        @Option(help: "viewer, support or admin.") var role: String
        @Option(help: "When the token stops working (ISO 8601), default never.") var expiresAt: String?

        func run() async throws {
            let (name, role, expiresAt) = (name, role, expiresAt)
            let lines = try await KekCommand.withStore(database) { store, _ in
                try await OperatorsCommand.add(store.operators, name: name, role: role, expiresAt: expiresAt)
            }
            lines.forEach { print($0) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the operators, oldest first.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let lines = try await KekCommand.withStore(database) { store, _ in
                OperatorsCommand.lines(try await store.operators.operators())
            }
            lines.forEach { print($0) }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give an operator a new token (printed once); the old one is refused at once.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The operator's id.") var id: String

        func run() async throws {
            let id = try OperatorsCommand.id(id)
            let lines = try await KekCommand.withStore(database) { store, _ in
                try await OperatorsCommand.rotate(store.operators, id: id)
            }
            lines.forEach { print($0) }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an operator; its token is refused at once.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The operator's id.") var id: String

        func run() async throws {
            let id = try OperatorsCommand.id(id)
            let lines = try await KekCommand.withStore(database) { store, _ in
                OperatorsCommand.lines([try await store.operators.revokeOperator(id: id, actor: OperatorsCommand.actor)]
                )
            }
            lines.forEach { print($0) }
        }
    }

    /// Adds an operator: its line, then its token.
    static func add(_ operators: any OperatorRepository, name: String, role: String, expiresAt: String?)
        async throws -> [String]
    {
        try Operator.validate(name: name)
        guard let role = OperatorRole(rawValue: role) else {
            throw ValidationError(
                "--role must be one of \(OperatorRole.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var expiry: Date?
        if let expiresAt {
            guard let date = ISO8601DateFormatter().date(from: expiresAt), date > Date() else {
                throw ValidationError("--expires-at must be a future time in ISO 8601, e.g. 2027-01-31T00:00:00Z")
            }
            expiry = date
        }
        let token = OperatorTokens.token(random: SecureRandom.bytes(24))
        let created = try await operators.createOperator(
            name: name, role: role, expiresAt: expiry, secret: token, actor: actor)
        return lines([created]) + ["token \(token)  (shown once: store it now)"]
    }

    /// Rotates an operator's token: its line, then the new token.
    static func rotate(_ operators: any OperatorRepository, id: UUID) async throws -> [String] {
        let token = OperatorTokens.token(random: SecureRandom.bytes(24))
        let rotated = try await operators.rotateOperator(id: id, secret: token, actor: actor)
        return lines([rotated]) + ["token \(token)  (shown once: store it now)"]
    }

    /// One line per operator: id, role, name, token prefix, state.
    static func lines(_ operators: [Operator]) -> [String] {
        operators.map { op in
            let state =
                if let revoked = op.revokedAt {
                    "revoked \(ISO8601DateFormatter().string(from: revoked))"
                } else if let
                    expires = op.expiresAt
                { "expires \(ISO8601DateFormatter().string(from: expires))" } else { "active" }
            return "\(op.id.uuidString.lowercased())  \(op.role.rawValue)  \(op.name)  \(op.tokenPrefix)…  \(state)"
        }
    }

    static func id(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw ValidationError("\(text) is not an operator's id") }
        return id
    }
}
