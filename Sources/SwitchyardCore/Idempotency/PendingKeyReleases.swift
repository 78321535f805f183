import Foundation
import Logging
import Synchronization

/// The `Idempotency-Key` claims this process still has to release: a request that ended because the
/// database could not be reached (a connection dropped during a statement or its COMMIT) could not release
/// its key then, and may even hold one it does not know it claimed (a COMMIT that landed unseen). Its key is
/// queued here and released as soon as the database answers again, by ``run(sleep:)``, instead of staying
/// held for the whole lease. A release is conditional on the owner (see
/// ``IdempotencyRepository/releaseIdempotent(tenant:key:owner:)``): one whose request's answer did land,
/// or whose key another request took over meanwhile, changes nothing.
public final class PendingKeyReleases: Sendable {
    /// One claim to release.
    public struct Release: Sendable, Equatable {
        public var tenant: UUID
        public var key: String
        public var owner: String
        /// A resource linked to the key first, so that the release ends the key's lease instead of forgetting
        /// it: the payment an operation acted on, which the retry that takes the key over answers.
        public var linking: String?

        public init(tenant: UUID, key: String, owner: String, linking: String? = nil) {
            self.tenant = tenant
            self.key = key
            self.owner = owner
            self.linking = linking
        }
    }

    /// The most claims kept; past it the oldest is dropped (its lease still frees it).
    public static let capacity = 10_000
    /// The pause between attempts while the database stays unreachable: doubling from the first up to the last.
    static let backoffMs = (first: 100, last: 5_000)

    private let claims: any IdempotencyRepository
    private let logger: Logger
    private let queue = Mutex<[Release]>([])
    /// Rung by each ``enqueue(_:)``; ``run(sleep:)`` waits on it while the queue is empty (one ring kept).
    private let doorbell: (rings: AsyncStream<Void>, ring: AsyncStream<Void>.Continuation)

    public init(claims: any IdempotencyRepository, logger: Logger) {
        self.claims = claims
        self.logger = logger
        let (rings, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        doorbell = (rings, ring)
    }

    /// The claims waiting to be released.
    public var pending: [Release] { queue.withLock { $0 } }

    /// Queues `release` for the next attempt.
    public func enqueue(_ release: Release) {
        let dropped: Release? = queue.withLock { queue in
            guard !queue.contains(release) else { return nil }
            queue.append(release)
            return queue.count > Self.capacity ? queue.removeFirst() : nil
        }
        doorbell.ring.yield()
        if let dropped {
            logger.warning(
                "idempotency key release dropped; its lease frees it", metadata: ["tenant.id": "\(dropped.tenant)"])
        }
    }

    /// Releases `release` now; queues it when the database cannot take it (or another failure stops it).
    public func release(_ release: Release) async {
        do {
            try await apply(release)
        } catch {
            enqueue(release)
        }
    }

    /// Links what `release` names, if anything, then releases its claim; both only while its owner holds it.
    private func apply(_ release: Release) async throws {
        if let resourceId = release.linking {
            try await claims.linkIdempotent(
                tenant: release.tenant, key: release.key, owner: release.owner, resourceId: resourceId)
        }
        try await claims.releaseIdempotent(tenant: release.tenant, key: release.key, owner: release.owner)
    }

    /// Tries every queued release once, in order, stopping at the first the database cannot take (it stays
    /// queued with those after it); returns how many were released.
    @discardableResult
    public func drain() async -> Int {
        var released = 0
        while let next = queue.withLock({ $0.first }) {
            do {
                try await apply(next)
                released += 1
            } catch let error where error.isStorageUnavailable {
                return released
            } catch {
                // Not an outage: trying again will not help; the key's lease frees it.
                logger.warning(
                    "idempotency key could not be released",
                    metadata: ["tenant.id": "\(next.tenant)", "error.message": "\(String(describing: error))"])
            }
            queue.withLock { queue in
                if let index = queue.firstIndex(of: next) { queue.remove(at: index) }
            }
        }
        if released > 0 { logger.info("idempotency keys released", metadata: ["idempotency.released": "\(released)"]) }
        return released
    }

    /// Drains the queue until the calling task is cancelled: at once when a claim is queued, then again after
    /// a pause while the database stays unreachable, doubling from `first` up to `last` ms. While the queue is
    /// empty it waits for the next claim without waking. One worker runs this at a time.
    public func run(sleep: @Sendable (Int) async throws -> Void = { try await Task.sleep(for: .milliseconds($0)) })
        async
    {
        var rings = doorbell.rings.makeAsyncIterator()
        var pause = Self.backoffMs.first
        while !Task.isCancelled {
            if pending.isEmpty {
                // Nil once the task is cancelled.
                guard await rings.next() != nil else { return }
                continue
            }
            _ = await drain()
            if pending.isEmpty {
                pause = Self.backoffMs.first
                continue
            }
            pause = min(pause * 2, Self.backoffMs.last)
            do { try await sleep(pause) } catch { return }
        }
    }
}
