import ProviderKit

/// What handling a provider's notification came to, for the intake to answer the provider with: the
/// plugin's acknowledgement, a request to send it again later, or a refusal of an unverifiable one.
public enum NotificationAnswer: Sendable, Equatable {
    /// Taken in (applied, recorded for review, or a replay of one taken before): the plugin's
    /// acknowledgement, in the form its provider expects.
    case acknowledged(NotificationReply)
    /// Verified but not applied (the database failed meanwhile): the provider should send it again.
    case retryLater
    /// Not verified: refused. `reply` is the plugin's own refusal when it chose a client error.
    case unverified(reply: NotificationReply?)
}
