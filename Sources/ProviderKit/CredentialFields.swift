#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A plugin's credential fields, declared once as the cases of a string enum: the manifest lists them
/// (``manifestFields``) and the flows read the account's values by case.
///
/// ```swift
/// enum Credential: String, CredentialFields {
///     case merchantId = "merchant_id"
///     case secretKey = "secret_key"
///     var isSecret: Bool { self == .secretKey }
/// }
/// ```
public protocol CredentialFields: CaseIterable, Sendable, RawRepresentable where RawValue == String {
    /// Whether the field is secret: encrypted at rest, write-only in the API and never logged.
    var isSecret: Bool { get }
    /// Whether an account must supply it; true unless the plugin says otherwise.
    var isRequired: Bool { get }
    /// The values the provider publishes for this field on its test system (none unless the plugin
    /// lists them); a live account may not use them (``CredentialField/publicTestValues``).
    var publicTestValues: [String] { get }
}

extension CredentialFields {
    public var isRequired: Bool { true }

    public var publicTestValues: [String] { [] }

    /// The field's name, e.g. `private_key`.
    public var name: String { rawValue }

    /// The field as the manifest declares it.
    public var field: CredentialField {
        CredentialField(
            name: rawValue, secret: isSecret, required: isRequired,
            publicTestValues: publicTestValues.isEmpty ? nil : publicTestValues)
    }

    /// Every field, in declaration order, for ``PluginManifest/credentials``.
    public static var manifestFields: [CredentialField] { allCases.map(\.field) }
}

extension Dictionary where Key == String, Value == String {
    /// A required credential field as a ``Secret``.
    public func require<Field: CredentialFields>(_ field: Field) throws -> Secret {
        try require(field.name)
    }

    /// A required credential field that is not secret.
    public func requireIdentifier<Field: CredentialFields>(_ field: Field) throws -> String {
        try requireIdentifier(field.name)
    }

    /// An optional credential field that is not secret.
    public func nonBlank<Field: CredentialFields>(_ field: Field) -> String? {
        nonBlank(field.name)
    }
}
