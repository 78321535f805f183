import Foundation
import Logging
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// The janitor settles `Idempotency-Key`s left in progress past their lease: a key linked to the payment or
/// refund its request created, or naming the payment it acted on, is answered with it; any other is
/// released; one bounded batch per look.
struct JanitorIdempotencyKeyTests {
    static let lease: TimeInterval = 30

    /// A janitor over `world`'s repositories that settles keys, with `batch` keys per look.
    static func janitor(_ world: DomainWorld, batch: Int = 50) -> PaymentJanitor {
        var policy = PlatformPolicy()
        policy.janitor.batchSize = batch
        world.service.policy.replace(policy)
        return PaymentJanitor(
            service: world.service, payments: world.payments, clock: world.clock.now,
            logger: Logger(label: "janitor-test", factory: { _ in SwiftLogNoOpLogHandler() }), keys: world.payments)
    }

    /// Claims `key` for `owner`, linking `resource` to it when given.
    static func claim(_ world: DomainWorld, _ key: String, owner: String, linking resource: String? = nil)
        async throws
    {
        let claim = try await world.payments.claimIdempotent(
            tenant: world.tenant, key: key, requestHash: "h", owner: owner, lease: lease)
        #expect(claim == .proceed)
        if let resource {
            #expect(
                try await world.payments.linkIdempotent(
                    tenant: world.tenant, key: key, owner: owner, resourceId: resource))
        }
    }

    /// What a retry of `key` is told.
    static func retry(_ world: DomainWorld, _ key: String) async throws -> IdempotencyClaim {
        try await world.payments.claimIdempotent(
            tenant: world.tenant, key: key, requestHash: "h", owner: "retry-\(UUID())", lease: lease)
    }

    @Test func aKeyPastItsLeaseIsAnsweredWithWhatItsRequestCreatedOrActedOn() async throws {
        let world = DomainWorld()
        let janitor = Self.janitor(world)
        try await Self.claim(world, "POST /v1/payments create", owner: "a", linking: "pay_1")
        try await Self.claim(world, "POST /v1/payments/pay_2/refunds refund", owner: "b", linking: "re_1")
        try await Self.claim(world, "POST /v1/payments/pay_3/capture capture", owner: "c")
        world.clock.advance(Self.lease - 1)
        await janitor.runOnce()
        guard case .held = try await Self.retry(world, "POST /v1/payments create") else {
            Issue.record("a key within its lease is left to its request")
            return
        }
        world.clock.advance(2)
        await janitor.runOnce()
        #expect(
            try await Self.retry(world, "POST /v1/payments create")
                == .replay(.resource(IdempotentResource(kind: .payment, id: "pay_1", created: true))))
        #expect(
            try await Self.retry(world, "POST /v1/payments/pay_2/refunds refund")
                == .replay(.resource(IdempotentResource(kind: .refund, id: "re_1", created: true))))
        #expect(
            try await Self.retry(world, "POST /v1/payments/pay_3/capture capture")
                == .replay(.resource(IdempotentResource(kind: .payment, id: "pay_3", created: false))))
        // The request that held the key, if still running, no longer answers it.
        #expect(
            !(try await world.payments.finishIdempotent(
                tenant: world.tenant, key: "POST /v1/payments create", owner: "a",
                outcome: .failure(CoreError(.badRequest, "late")))))
    }

    @Test func aKeyUnderWhichNothingWasCreatedIsReleased() async throws {
        let world = DomainWorld()
        let janitor = Self.janitor(world)
        try await Self.claim(world, "POST /v1/payments nothing", owner: "a")
        try await Self.claim(world, "POST /v1/customers/cus_1/payment-methods vault", owner: "b")
        world.clock.advance(Self.lease + 1)
        await janitor.runOnce()
        #expect(!world.payments.holdsIdempotencyKey(tenant: world.tenant, key: "POST /v1/payments nothing"))
        #expect(try await Self.retry(world, "POST /v1/payments nothing") == .proceed)
        #expect(try await Self.retry(world, "POST /v1/customers/cus_1/payment-methods vault") == .proceed)
    }

    @Test func eachLookSettlesAtMostOneBatchOldestLeaseFirst() async throws {
        let world = DomainWorld()
        let janitor = Self.janitor(world, batch: 2)
        for index in 1...3 {
            try await Self.claim(world, "POST /v1/payments k\(index)", owner: "o\(index)")
            world.clock.advance(1)
        }
        world.clock.advance(Self.lease)
        await janitor.runOnce()
        let held = (1...3).filter {
            world.payments.holdsIdempotencyKey(tenant: world.tenant, key: "POST /v1/payments k\($0)")
        }
        #expect(held == [3])
        await janitor.runOnce()
        #expect(!world.payments.holdsIdempotencyKey(tenant: world.tenant, key: "POST /v1/payments k3"))
    }

    @Test(
        arguments: [
            ("POST /v1/payments k", "pay_1", IdempotentResource(kind: .payment, id: "pay_1", created: true)),
            ("POST /v1/payments k", nil, nil),
            ("POST /v1/payments/pay_1/refunds k", "re_1", IdempotentResource(kind: .refund, id: "re_1", created: true)),
            ("POST /v1/payments/pay_1/refunds k", nil, nil),
            (
                "POST /v1/payments/pay_1/cancel a b", nil,
                IdempotentResource(kind: .payment, id: "pay_1", created: false)
            ),
            ("POST /v1/payments/pay_1/session k", nil, IdempotentResource(kind: .payment, id: "pay_1", created: false)),
            ("POST /v1/customers/cus_1/payment-methods k", "pm_1", nil),
            // A live API key's keys are stored after `live `, and settle as a test key's do.
            ("live POST /v1/payments k", "pay_1", IdempotentResource(kind: .payment, id: "pay_1", created: true)),
            (
                "live POST /v1/payments/pay_1/refunds k", "re_1",
                IdempotentResource(kind: .refund, id: "re_1", created: true)
            ),
            (
                "live POST /v1/payments/pay_1/capture k", nil,
                IdempotentResource(kind: .payment, id: "pay_1", created: false)
            ),
            ("live POST /v1/payments k", nil, nil),
            ("live  POST /v1/payments k", "pay_1", nil),
            ("not a key", "pay_1", nil),
        ] as [(String, String?, IdempotentResource?)])
    func whatAnExpiredKeyAnswers(key: String, resource: String?, expected: IdempotentResource?) {
        #expect(IdempotentResource.settled(key: key, resourceId: resource) == expected)
    }
}
