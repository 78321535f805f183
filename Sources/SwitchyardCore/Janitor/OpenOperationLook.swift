import Foundation

/// What one janitor look at an open refund or capture found.
public enum OpenOperationLook: Sendable, Equatable {
    /// The operation reached a final outcome (or was final already).
    case settled
    /// Still open; look again on the schedule.
    case open
    /// Still open and the provider cannot tell: look again on the schedule, and list it for review now
    /// with this reason.
    case unanswerable(String)
}
