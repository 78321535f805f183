import Foundation

/// Settings of a ``SandboxServer`` and of every emulator it hosts.
///
/// Each emulator's own settings are kept by their type and read through a property its provider folder
/// declares (e.g. `configuration.citcon`); an emulator whose settings were never set gets their defaults.
public struct SandboxConfiguration: Sendable {
    /// How notifications (IPNs, webhooks) are retried until the receiver acknowledges them.
    public var notificationRetry: SandboxNotificationRetryPolicy
    /// The time source of every emulator (token lifetimes, pending-charge expiry, timestamps).
    /// Tests inject a controllable clock; retry backoff and fault latency always use real time.
    public var clock: @Sendable () -> Date
    private var emulatorSettings: [ObjectIdentifier: any Sendable] = [:]

    /// Creates a configuration in which every emulator has its default settings.
    /// - Parameters:
    ///   - notificationRetry: the retry schedule of outgoing notifications.
    ///   - clock: the time source; the system clock by default.
    public init(
        notificationRetry: SandboxNotificationRetryPolicy = .init(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.notificationRetry = notificationRetry
        self.clock = clock
    }

    /// One emulator's settings (their defaults until set).
    public subscript<Settings: SandboxEmulatorSettings>(_ type: Settings.Type) -> Settings {
        get { emulatorSettings[ObjectIdentifier(type)] as? Settings ?? Settings() }
        set { emulatorSettings[ObjectIdentifier(type)] = newValue }
    }
}

/// The settings of one emulator, with defaults that make a working (if merchant-less) emulator.
public protocol SandboxEmulatorSettings: Sendable {
    /// The default settings.
    init()
}

/// The retry schedule of outgoing notifications: `maxAttempts` tries in total, waiting
/// `initialDelay` after the first failure and doubling the wait after each further failure.
public struct SandboxNotificationRetryPolicy: Sendable {
    /// Total number of delivery attempts, the first included (at least 1).
    public var maxAttempts: Int
    /// Wait after the first failed attempt.
    public var initialDelay: Duration
    /// Upper bound of the wait between two attempts.
    public var maxDelay: Duration
    /// Time allowed for one attempt before it counts as failed.
    public var attemptTimeout: Duration

    /// Creates a policy; the defaults suit loopback use (5 tries, 200 ms doubling to at most 2 s).
    public init(
        maxAttempts: Int = 5,
        initialDelay: Duration = .milliseconds(200),
        maxDelay: Duration = .seconds(2),
        attemptTimeout: Duration = .seconds(5)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.attemptTimeout = attemptTimeout
    }
}
