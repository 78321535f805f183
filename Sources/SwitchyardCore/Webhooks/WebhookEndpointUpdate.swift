import Foundation

/// The changes a tenant asks for on one of its webhook endpoints; nil fields stay as they are.
public struct WebhookEndpointUpdate: Sendable, Equatable {
    public var url: String?
    public var description: String?
    /// Event types or patterns, each once.
    public var eventTypes: [String]?
    /// `true` re-enables a disabled endpoint (within the enabled-endpoint quota); `false` disables it.
    public var enabled: Bool?

    /// Creates an update.
    public init(url: String? = nil, description: String? = nil, eventTypes: [String]? = nil, enabled: Bool? = nil) {
        self.url = url
        self.description = description
        self.eventTypes = eventTypes
        self.enabled = enabled
    }

    /// Whether the update changes nothing.
    public var isEmpty: Bool { url == nil && description == nil && eventTypes == nil && enabled == nil }
}
