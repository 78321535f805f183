#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Typed access to an account's credential fields (``AccountContext/credentials``) and options.
///
/// A missing field is a `misconfigured` ``ProviderError`` that names the field, never a value. A field whose
/// value is only blanks counts as missing.
extension Dictionary where Key == String, Value == String {
    /// A required credential as a ``Secret``.
    ///
    /// - Throws: `misconfigured` (`credential <name> is missing`) when it is absent or blank.
    public func require(_ name: String) throws -> Secret {
        guard let value = self[name], !value.trimmingBlanks().isEmpty else {
            throw ProviderError.missingCredential(name)
        }
        return Secret(value)
    }

    /// A required credential that is not secret (a merchant id, a key id), surrounding blanks removed.
    ///
    /// - Throws: `misconfigured` (`credential <name> is missing`) when it is absent or blank.
    public func requireIdentifier(_ name: String) throws -> String {
        guard let value = nonBlank(name) else { throw ProviderError.missingCredential(name) }
        return value
    }

    /// A field that is not secret (an optional credential, an account option), surrounding blanks removed;
    /// nil when absent or blank.
    public func nonBlank(_ name: String) -> String? {
        guard let value = self[name]?.trimmingBlanks(), !value.isEmpty else { return nil }
        return value
    }

    /// An integer field (an account option); nil when absent, blank or not an integer.
    public func integer(_ name: String) -> Int64? {
        nonBlank(name).flatMap { Int64($0) }
    }

    /// An integer field clamped to `range`, else `defaultValue` when absent or not an integer.
    public func integer(_ name: String, default defaultValue: Int64, clampedTo range: ClosedRange<Int64>) -> Int64 {
        guard let value = integer(name) else { return defaultValue }
        return Swift.min(Swift.max(value, range.lowerBound), range.upperBound)
    }
}

extension Dictionary where Key == String, Value == String {
    /// A required credential field of the manifest as a ``Secret``.
    public func require(_ field: CredentialField) throws -> Secret {
        try require(field.name)
    }

    /// A required credential field of the manifest that is not secret.
    public func requireIdentifier(_ field: CredentialField) throws -> String {
        try requireIdentifier(field.name)
    }

    /// An optional credential field of the manifest that is not secret.
    public func nonBlank(_ field: CredentialField) -> String? {
        nonBlank(field.name)
    }
}

extension ProviderError {
    /// A required credential field is absent or blank; the message names the field only.
    public static func missingCredential(_ name: String) -> ProviderError {
        .misconfigured("credential \(name) is missing")
    }
}

extension AccountContext {
    /// The current access token as a ``Secret``; nil when the host holds none.
    public var accessTokenSecret: Secret? {
        guard let accessToken, !accessToken.isEmpty else { return nil }
        return Secret(accessToken)
    }

    /// Every value of this account that must never appear in an outcome or a log: the credential values and
    /// the access token.
    public var secretValues: [String] {
        Array(credentials.values) + [accessToken].compactMap { $0 }
    }
}
