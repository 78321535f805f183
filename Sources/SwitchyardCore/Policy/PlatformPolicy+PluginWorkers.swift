import Foundation

extension PlatformPolicy {
    /// How plugin calls are bounded and plugin worker processes supervised (the `plugin_workers` section).
    public struct PluginWorkers: Codable, Sendable, Equatable {
        /// Added to `limits.provider_timeout_ms` to make every plugin call's deadline, in milliseconds.
        public var deadlineMarginMs: Int = 5_000
        /// How long a call past its deadline may still complete after the host asked the plugin to cancel.
        public var cancelGraceMs: Int = 1_000
        /// Worker deaths within ``crashWindowMs`` that quarantine the plugin file.
        public var crashLimit: Int = 3
        /// The window for ``crashLimit``, in milliseconds.
        public var crashWindowMs: Int = 300_000
        /// Delay before restarting a worker after its first death; doubles with each further death.
        public var restartBackoffMs: Int = 200
        /// Threads running the calls of one in-process plugin.
        public var inProcessThreads: Int = 4

        enum CodingKeys: String, CodingKey {
            case deadlineMarginMs = "deadline_margin_ms"
            case cancelGraceMs = "cancel_grace_ms"
            case crashLimit = "crash_limit"
            case crashWindowMs = "crash_window_ms"
            case restartBackoffMs = "restart_backoff_ms"
            case inProcessThreads = "in_process_threads"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = PluginWorkers()
            deadlineMarginMs = try Self.bounded(c, .deadlineMarginMs, defaults.deadlineMarginMs, 0...600_000)
            cancelGraceMs = try Self.bounded(c, .cancelGraceMs, defaults.cancelGraceMs, 0...60_000)
            crashLimit = try Self.bounded(c, .crashLimit, defaults.crashLimit, 1...1_000)
            crashWindowMs = try Self.bounded(c, .crashWindowMs, defaults.crashWindowMs, 1...86_400_000)
            restartBackoffMs = try Self.bounded(c, .restartBackoffMs, defaults.restartBackoffMs, 0...60_000)
            inProcessThreads = try Self.bounded(c, .inProcessThreads, defaults.inProcessThreads, 1...64)
        }

        private static func bounded(
            _ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, _ fallback: Int, _ range: ClosedRange<Int>
        ) throws -> Int {
            let value = try c.decodeIfPresent(Int.self, forKey: key) ?? fallback
            guard range.contains(value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription: "plugin_workers.\(key.rawValue) must be between \(range.lowerBound) and "
                        + "\(range.upperBound)")
            }
            return value
        }

        /// The `plugin_workers` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> PluginWorkers {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(PluginWorkers.self, forKey: .pluginWorkers)
                ?? PluginWorkers()
        }

        private enum SectionKey: String, CodingKey {
            case pluginWorkers = "plugin_workers"
        }
    }
}
