import Foundation

/// An API key as created: the secret is returned once and never stored.
public struct CreatedAPIKey: Sendable {
    public var key: APIKey
    public var secret: String

    public init(key: APIKey, secret: String) {
        self.key = key
        self.secret = secret
    }
}
