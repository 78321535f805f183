import Foundation
import SwitchyardCore
import Synchronization

/// Per-tenant request rate and concurrency accounting of this process (limits are per replica).
///
/// Each tenant has a ``TokenBucket`` and a count of its requests in progress. State lives in memory for
/// the tenants that have made a request, and only authenticated tenants get an entry.
final class TenantLimiter: Sendable {
    /// The outcome of ``admit(tenant:limits:)``.
    enum Admission: Equatable {
        /// Admitted; call ``finish(tenant:)`` when the request ends.
        case admitted
        /// Over the request rate; retry after this many seconds.
        case rateLimited(retryAfterSeconds: Int)
        /// Too many of the tenant's requests are in progress.
        case tooManyConcurrent
    }

    private struct Entry {
        var bucket: TokenBucket
        var inFlight = 0
    }

    private let entries = Mutex<[UUID: Entry]>([:])
    private let now: @Sendable () -> Double

    /// - Parameter now: monotonic seconds; the process's uptime clock by default.
    init(now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.now = now
    }

    /// Counts a request of `tenant` against `limits`: the concurrency cap first (a refused request
    /// takes no token), then the rate.
    func admit(tenant: UUID, limits: PlatformPolicy.Tenants) -> Admission {
        let time = now()
        return entries.withLock { entries -> Admission in
            var entry =
                entries[tenant]
                ?? Entry(bucket: TokenBucket(rate: limits.requestsPerSecond, capacity: limits.burst, now: time))
            entry.bucket.update(rate: limits.requestsPerSecond, capacity: limits.burst, now: time)
            defer { entries[tenant] = entry }
            guard entry.inFlight < limits.maxConcurrentRequests else { return .tooManyConcurrent }
            switch entry.bucket.take(now: time) {
            case .admitted:
                entry.inFlight += 1
                return .admitted
            case .limited(let seconds):
                return .rateLimited(retryAfterSeconds: seconds)
            }
        }
    }

    /// Ends a request admitted by ``admit(tenant:limits:)``.
    func finish(tenant: UUID) {
        entries.withLock { entries -> Void in
            entries[tenant]?.inFlight -= 1
        }
    }
}
