import AsyncHTTPClient
import Foundation
import NIOCore
import ProviderSandbox
import Testing

@Suite struct SandboxFaultTests {
    @Test func latencyDelaysThenProcesses() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            await sandbox.server.citcon.addFaults([
                SandboxFault(kind: .latency, method: "POST", pathPrefix: "/v1/charges", latencyMs: 300)
            ])
            let start = ContinuousClock.now
            let created = try await sandbox.citcon.createCharge(token: token, reference: "lat-1", amount: 100)
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            #expect(created.status == 200)
            #expect(await sandbox.server.citcon.charge(merchant: "m1", reference: "lat-1") != nil)
        }
    }

    @Test func http500AnswersWithoutProcessingAndCountIsConsumed() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            let created = try await sandbox.citcon.createCharge(token: token, reference: "f500", amount: 100)
            let chargeToken = try #require(created.string("charge_token"))
            await sandbox.server.citcon.addFaults([
                SandboxFault(kind: .http500, method: "POST", pathPrefix: "/v1/charges/", count: 1)
            ])

            let failed = try await sandbox.citcon.confirm(token: token, chargeToken: chargeToken)
            #expect(failed.status == 500)
            #expect(await sandbox.server.citcon.ledger().isEmpty)
            #expect(await sandbox.server.citcon.charge(merchant: "m1", reference: "f500")?.status == .initiated)
            #expect(await sandbox.server.citcon.activeFaults().isEmpty)

            let retried = try await sandbox.citcon.confirm(token: token, chargeToken: chargeToken)
            #expect(retried.string("status") == "succeeded")
            #expect(await sandbox.server.citcon.ledger().count == 1)
        }
    }

    @Test func http503AnswersWithoutProcessing() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            await sandbox.server.citcon.addFaults([SandboxFault(kind: .http503, pathPrefix: "/citcon/v1/charges")])
            let reply = try await sandbox.citcon.createCharge(token: token, reference: "f503", amount: 100)
            #expect(reply.status == 503)
            #expect(await sandbox.server.citcon.charge(merchant: "m1", reference: "f503") == nil)
        }
    }

    @Test func resetDropsTheConnectionWithoutAnswerOrProcessing() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            await sandbox.server.citcon.addFaults([
                SandboxFault(kind: .reset, method: "POST", pathPrefix: "/v1/charges", count: 1)
            ])
            // The kernel answers with a TCP RST: the client sees ECONNRESET and no HTTP response.
            let error = await #expect(throws: IOError.self) {
                _ = try await sandbox.citcon.createCharge(token: token, reference: "reset-1", amount: 100)
            }
            #expect(error?.errnoCode == ECONNRESET)
            #expect(await sandbox.server.citcon.charge(merchant: "m1", reference: "reset-1") == nil)
            // The server keeps serving new connections.
            #expect(
                try await sandbox.citcon.createCharge(token: token, reference: "reset-1", amount: 100).status == 200)
        }
    }

    @Test func timeoutAfterProcessingLetsTheClientTimeOutWithTheLedgerWritten() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            let created = try await sandbox.citcon.createCharge(token: token, reference: "tap-1", amount: 640)
            let chargeToken = try #require(created.string("charge_token"))
            await sandbox.server.citcon.addFaults([
                SandboxFault(
                    kind: .timeoutAfterProcessing, method: "POST", pathPrefix: "/v1/charges/", count: 1, latencyMs: 5000
                )
            ])
            await #expect(throws: HTTPClientError.deadlineExceeded) {
                _ = try await sandbox.citcon.confirm(
                    token: token, chargeToken: chargeToken, timeout: .milliseconds(400))
            }
            let ledger = await sandbox.server.citcon.ledger()
            #expect(ledger.map(\.kind) == [.charge])
            #expect(ledger.first?.reference == "tap-1")
            #expect(try await sandbox.citcon.inquire(token: token, id: "tap-1").string("status") == "succeeded")
        }
    }

    @Test func timeoutBeforeProcessingAnswers504WithoutProcessing() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            await sandbox.server.citcon.addFaults([
                SandboxFault(kind: .timeoutBeforeProcessing, method: "POST", latencyMs: 200)
            ])
            let start = ContinuousClock.now
            let reply = try await sandbox.citcon.createCharge(token: token, reference: "tbp-1", amount: 100)
            #expect(reply.status == 504)
            #expect(ContinuousClock.now - start >= .milliseconds(200))
            #expect(await sandbox.server.citcon.charge(merchant: "m1", reference: "tbp-1") == nil)
        }
    }

    @Test func malformedAnswers200WithABodyThatIsNotJSON() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            await sandbox.server.citcon.addFaults([SandboxFault(kind: .malformed, pathPrefix: "/v1/charges")])
            let reply = try await sandbox.citcon.createCharge(token: token, reference: "mal-1", amount: 100)
            #expect(reply.status == 200)
            #expect(!reply.body.isEmpty)
            #expect(reply.json == nil)
            #expect(await sandbox.server.citcon.charge(merchant: "m1", reference: "mal-1") == nil)
        }
    }

    @Test func faultsApplyPerMerchantAndAreManagedOverHTTP() async throws {
        try await withSandbox { sandbox in
            let m1 = try await sandbox.citcon.token()
            let m2 = try await sandbox.citcon.token(TestMerchants.m2.privateKey)
            let set = try await send(
                .post,
                sandbox.adminURL + "/faults",
                json: [["kind": "http500", "merchant": "m2", "pathPrefix": "/v1/charges", "count": 2]]
            )
            #expect(set.status == 200)
            #expect((set.json as? [Any])?.count == 1)

            #expect(try await sandbox.citcon.createCharge(token: m1, reference: "pm-1", amount: 100).status == 200)
            #expect(try await sandbox.citcon.createCharge(token: m2, reference: "pm-1", amount: 100).status == 500)
            let listed = try await send(.get, sandbox.adminURL + "/faults")
            #expect(((listed.json as? [[String: Any]])?.first?["count"] as? NSNumber)?.intValue == 1)

            let invalid = try await send(.post, sandbox.adminURL + "/faults", json: [["kind": "explode"]])
            #expect(invalid.status == 400)

            #expect(try await send(.delete, sandbox.adminURL + "/faults").status == 204)
            #expect(await sandbox.server.citcon.activeFaults().isEmpty)
            #expect(try await sandbox.citcon.createCharge(token: m2, reference: "pm-1", amount: 100).status == 200)
        }
    }

    @Test func adminConfirmPlaysTheSDKStep() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            let created = try await sandbox.citcon.createCharge(
                token: token, reference: "adm-1", amount: 300, autoCapture: false)
            let chargeToken = try #require(created.string("charge_token"))
            let reply = try await send(.post, sandbox.adminURL + "/confirm/\(chargeToken)", json: ["method": "card"])
            #expect(reply.status == 200)
            #expect(reply.object["status"] as? String == "authorized")
            #expect(reply.object["paymentMethod"] as? String == "card")
            let again = try await send(.post, sandbox.adminURL + "/confirm/\(chargeToken)")
            #expect(again.status == 400)
            #expect(again.object["code"] as? String == "4101")
        }
    }
}
