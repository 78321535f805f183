import Foundation

/// A notification an emulator sends to a merchant's URL.
struct SandboxNotification: Sendable {
    /// Emulator name, e.g. `citcon`.
    var provider: String
    /// Merchant the notification belongs to.
    var merchant: String
    /// What the notification is about (e.g. a charge or refund reference), for the delivery log.
    var subject: String
    /// Destination URL.
    var url: String
    /// `Content-Type` of the body.
    var contentType: String
    /// The body as sent.
    var body: [UInt8]
    /// Extra headers sent with the body (e.g. a signature header), in order.
    var headers: [(name: String, value: String)] = []
    /// Decides from the receiver's HTTP status and body whether it acknowledged the notification;
    /// nil accepts any 2xx status.
    var acknowledges: (@Sendable (_ status: Int, _ body: [UInt8]) -> Bool)? = nil
}

/// One delivery attempt of a notification, as recorded by the sandbox.
public struct SandboxNotificationAttempt: Sendable, Codable, Equatable {
    /// Emulator name, e.g. `citcon`.
    public var provider: String
    /// Merchant the notification belongs to.
    public var merchant: String
    /// What the notification is about (e.g. a charge or refund reference).
    public var subject: String
    /// Destination URL.
    public var url: String
    /// 1 for the first try.
    public var attempt: Int
    /// HTTP status answered by the receiver, nil when no answer arrived.
    public var statusCode: Int?
    /// Why no answer arrived, when that is the case.
    public var error: String?
    /// Whether the receiver acknowledged (2xx, or the provider's own acknowledgement rule).
    public var acknowledged: Bool
    /// When the attempt finished (real time).
    public var time: Date
}
