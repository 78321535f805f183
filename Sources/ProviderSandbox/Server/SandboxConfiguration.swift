import Foundation

/// Settings of a ``SandboxServer`` and of every emulator it hosts.
public struct SandboxConfiguration: Sendable {
    /// The Citcon UPI emulator's merchants and behaviour.
    public var citcon: CitconSandboxConfiguration
    /// The Worldline Direct emulator's merchants and behaviour.
    public var worldlineDirect: WorldlineDirectSandboxConfiguration
    /// The Antom emulator's merchants, key and behaviour.
    public var antom: AntomSandboxConfiguration
    /// The Worldline Sips emulator's merchants and behaviour.
    public var sips: WorldlineSipsSandboxConfiguration
    /// How notifications (IPNs, webhooks) are retried until the receiver acknowledges them.
    public var notificationRetry: SandboxNotificationRetryPolicy
    /// The time source of every emulator (token lifetimes, pending-charge expiry, timestamps).
    /// Tests inject a controllable clock; retry backoff and fault latency always use real time.
    public var clock: @Sendable () -> Date

    /// Creates a configuration.
    /// - Parameters:
    ///   - citcon: the Citcon emulator's settings.
    ///   - worldlineDirect: the Worldline Direct emulator's settings.
    ///   - notificationRetry: the retry schedule of outgoing notifications.
    ///   - clock: the time source; the system clock by default.
    ///   - antom: the Antom emulator's settings.
    ///   - sips: the Worldline Sips emulator's settings.
    public init(
        citcon: CitconSandboxConfiguration = .init(),
        worldlineDirect: WorldlineDirectSandboxConfiguration = .init(),
        notificationRetry: SandboxNotificationRetryPolicy = .init(),
        clock: @escaping @Sendable () -> Date = { Date() },
        antom: AntomSandboxConfiguration = .init(),
        sips: WorldlineSipsSandboxConfiguration = .init()
    ) {
        self.citcon = citcon
        self.worldlineDirect = worldlineDirect
        self.antom = antom
        self.sips = sips
        self.notificationRetry = notificationRetry
        self.clock = clock
    }

    /// Creates a configuration for the Citcon emulator from its individual settings.
    /// - Parameters:
    ///   - citconMerchants: the merchants whose private keys are accepted.
    ///   - tokenLifetime: lifetime of access tokens, in seconds (24 h by default).
    ///   - pendingChargeLifetime: lifetime of unconfirmed charges, in seconds (30 min by default).
    ///   - ipnEncoding: wire encoding of IPNs (form by default).
    ///   - clock: the time source; the system clock by default.
    ///   - antom: the Antom emulator's settings.
    ///   - sips: the Worldline Sips emulator's settings.
    public init(
        citconMerchants: [CitconSandboxMerchant],
        tokenLifetime: TimeInterval = 24 * 3600,
        pendingChargeLifetime: TimeInterval = 30 * 60,
        ipnEncoding: CitconIPNEncoding = .form,
        clock: @escaping @Sendable () -> Date = { Date() },
        antom: AntomSandboxConfiguration = .init(),
        sips: WorldlineSipsSandboxConfiguration = .init()
    ) {
        self.init(
            citcon: CitconSandboxConfiguration(
                merchants: citconMerchants,
                tokenLifetime: tokenLifetime,
                pendingChargeLifetime: pendingChargeLifetime,
                ipnEncoding: ipnEncoding
            ),
            clock: clock,
            antom: antom,
            sips: sips
        )
    }
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
