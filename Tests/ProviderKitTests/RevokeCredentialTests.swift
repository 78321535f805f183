import Foundation
import ProviderKit
import Testing

@Suite("The revokeCredential flow")
struct RevokeCredentialTests {
    static func request(kind: String = "card") -> RevokeCredentialRequest {
        RevokeCredentialRequest(
            credential: StoredCredential(id: "pm_1", kind: kind, token: "wallet1:42", paymentMethodType: "CARD"),
            customerId: "cust_7", operationId: "rvk_1")
    }

    private func driver<P: Provider>(_ provider: P.Type) -> TableDriver {
        let host = ScriptedHost { _ in OutboundResult(kind: .notSent, reason: "no script") }
        return TableDriver(table: PluginExport.table(for: provider), host: host)
    }

    @Test func methodNameIsStable() {
        #expect(Flow.revokeCredential.rawValue == "revokeCredential")
        #expect(Flow(rawValue: "revokeCredential") == .revokeCredential)
    }

    @Test func requestAndResultRoundTripThroughTheCTable() async throws {
        let reply = try await driver(EchoTestProvider.self).invoke(
            1, .revokeCredential, Self.request(), as: RevokeCredentialResult.self)
        #expect(reply.error == nil)
        #expect(reply.result == RevokeCredentialResult(status: .declined, code: "echo-rvk_1", message: "cust_7"))
    }

    @Test func aProviderErrorBecomesTheReplyError() async throws {
        let reply = try await driver(EchoTestProvider.self).invoke(
            2, .revokeCredential, Self.request(kind: "wallet_agreement"), as: RevokeCredentialResult.self)
        #expect(reply.result == nil)
        #expect(reply.error == ProviderErrorBody(code: "bad_request", message: "only cards can be revoked"))
    }

    @Test func aProviderWithoutTheMethodIsNotSupported() async throws {
        let reply = try await driver(OtherTestProvider.self).invoke(
            3, .revokeCredential, Self.request(), as: RevokeCredentialResult.self)
        #expect(reply.error?.code == "not_supported")
        #expect(reply.error?.message.contains("revokeCredential") == true)
    }

    @Test func statusesHaveStableWireNames() throws {
        let statuses: [RevokeCredentialResult.Status: String] = [
            .revoked: "revoked", .notSupported: "not_supported", .declined: "declined", .notSent: "not_sent",
            .unknown: "unknown", .authExpired: "auth_expired",
        ]
        for (status, name) in statuses {
            let json = try PluginJSON.encoder().encode(RevokeCredentialResult(status: status))
            #expect(String(decoding: json, as: UTF8.self).contains("\"\(name)\""), "\(status)")
            #expect(try PluginJSON.decoder().decode(RevokeCredentialResult.self, from: json).status == status)
        }
    }

    @Test func failureOutcomesMapToStatuses() {
        let cases: [(Outcome, RevokeCredentialResult.Status)] = [
            (.declined(code: "03", message: "refused"), .declined),
            (.notSent("connection refused"), .notSent),
            (Outcome(kind: .notSent, code: "not_supported", message: "no such flow"), .notSupported),
            (.unknown("timeout"), .unknown),
            (Outcome(kind: .pending), .unknown),
            (.authExpired, .authExpired),
        ]
        for (outcome, status) in cases {
            let result = RevokeCredentialResult(failure: outcome)
            #expect(result.status == status, "\(outcome.kind)")
            #expect(result.code == outcome.code && result.message == outcome.message)
        }
    }
}
