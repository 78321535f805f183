import CSwitchyardPlugin
import Foundation
import ProviderKit
import Testing

@Suite("PluginExport through the C table")
struct PluginExportTests {
    private func driver(
        _ respond: @escaping @Sendable (OutboundRequest) -> OutboundResult = { _ in
            OutboundResult(kind: .notSent, reason: "no script")
        }
    ) -> (TableDriver, ScriptedHost) {
        let host = ScriptedHost(respond: respond)
        return (TableDriver(table: PluginExport.table(for: EchoTestProvider.self), host: host), host)
    }

    @Test func tableHeaderAndManifest() throws {
        let table = PluginExport.table(for: EchoTestProvider.self)
        #expect(table.pointee.abi_version == UInt32(SWITCHYARD_PLUGIN_ABI_VERSION))
        #expect(table.pointee.struct_size == UInt32(MemoryLayout<sy_plugin_table>.size))
        let json = try #require(table.pointee.manifest_json)
        let manifest = try PluginJSON.decoder().decode(PluginManifest.self, from: Data(String(cString: json).utf8))
        #expect(manifest == EchoTestProvider.manifest)
        #expect(table.pointee.cancel != nil)
    }

    @Test func tableIsBuiltOncePerType() {
        let first = PluginExport.table(for: EchoTestProvider.self)
        #expect(PluginExport.table(for: EchoTestProvider.self) == first)
        let other = PluginExport.table(for: OtherTestProvider.self)
        #expect(other != first)
        #expect(String(cString: other.pointee.manifest_json!).contains("test-other"))
    }

    @Test func eachTypeCreatesItsOwnProvider() async throws {
        let host = ScriptedHost { _ in OutboundResult(kind: .notSent) }
        let echo = TableDriver(table: PluginExport.table(for: EchoTestProvider.self), host: host)
        let other = TableDriver(table: PluginExport.table(for: OtherTestProvider.self), host: host)
        let echoReply = try await echo.invoke(1, .authorize, AuthorizeRequest.test(), as: Outcome.self)
        let otherReply = try await other.invoke(1, .authorize, AuthorizeRequest.test(), as: Outcome.self)
        #expect(echoReply.result?.kind == .authorized)
        #expect(otherReply.result?.kind == .pending)
    }

    @Test func authorizeRoundTrip() async throws {
        let (driver, _) = driver()
        let reply = try await driver.invoke(
            7, .authorize, AuthorizeRequest.test(attempt: "att-9", amount: 4200), as: Outcome.self)
        #expect(reply.error == nil)
        #expect(reply.result == Outcome(kind: .authorized, providerPaymentId: "echo-att-9", amount: 4200))
    }

    @Test func providerErrorBecomesReplyError() async throws {
        let (driver, _) = driver()
        let request = CaptureRequest(
            payment: PaymentLocator(attemptId: "att-1", providerPaymentId: "p"), operationId: "cap-1", amount: 100,
            currency: "USD", isFinal: true
        )
        let reply = try await driver.invoke(1, .capture, request, as: Outcome.self)
        #expect(reply.result == nil)
        #expect(reply.error == ProviderErrorBody(code: "misconfigured", message: "capture account missing"))
    }

    @Test func otherErrorsBecomePluginErrorWithoutRequestData() async throws {
        let (driver, _) = driver()
        let request = VoidRequest(
            payment: PaymentLocator(attemptId: "att-1", providerPaymentId: nil), operationId: "op-SECRET-42")
        let reply = try await driver.invoke(1, .void, request, as: Outcome.self)
        let error = try #require(reply.error)
        #expect(error.code == "plugin_error")
        #expect(!error.message.contains("op-SECRET-42"))
    }

    @Test func unknownMethodIsNotSupported() async throws {
        let (driver, _) = driver()
        let data = await driver.start(3, method: "teleport", json: Data("{}".utf8)).wait()
        let reply = try PluginJSON.decoder().decode(PluginReply<Outcome>.self, from: data)
        #expect(reply.error?.code == "not_supported")
    }

    @Test func flowWithoutProviderMethodIsNotSupported() async throws {
        let (driver, _) = driver()
        let reply = try await driver.invoke(
            4, .accessToken, AccessTokenRequest(kind: "server"), as: AccessTokenResult.self)
        #expect(reply.error?.code == "not_supported")
        let session = try await driver.invoke(5, .clientSession, AccessTokenRequest(kind: "x"), as: Outcome.self)
        #expect(session.error?.code == "not_supported")
    }

    @Test func undecodableInvocationIsBadRequestWithoutEcho() async throws {
        let (driver, _) = driver()
        let data = await driver.start(5, method: "authorize", json: Data(#"{"account":{"secretish":"zz-77"}}"#.utf8))
            .wait()
        let reply = try PluginJSON.decoder().decode(PluginReply<Outcome>.self, from: data)
        #expect(reply.error?.code == "bad_request")
        #expect(reply.error?.message.contains("zz-77") == false)
    }

    @Test func twoHundredConcurrentCallsCompleteExactlyOnce() async throws {
        let (driver, _) = driver()
        let json = try PluginJSON.encoder().encode(PluginInvocation(account: .test, request: AuthorizeRequest.test()))
        let calls = (1...200).map { driver.start(UInt64($0), method: "authorize", json: json) }
        await withTaskGroup(of: Void.self) { group in
            for call in calls {
                group.addTask { _ = await call.wait() }
            }
        }
        // Absence is the subject: a stray second completion has no event of its own, so it is given a
        // window in which to show up.
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.allSatisfy { $0.completionCount == 1 })
        for call in calls {
            let reply = try PluginJSON.decoder().decode(PluginReply<Outcome>.self, from: await call.wait())
            #expect(reply.result?.kind == .authorized)
        }
    }

    @Test func cancelStopsALongCall() async throws {
        let (driver, _) = driver()
        let json = try PluginJSON.encoder().encode(
            PluginInvocation(
                account: .test, request: SyncRequest(payment: PaymentLocator(attemptId: "a", providerPaymentId: nil)))
        )
        let clock = ContinuousClock()
        let started = clock.now
        let call = driver.start(11, method: "sync", json: json)
        #expect(call.completionCount == 0)
        driver.cancel(11)
        // The provider never answers by itself, so a `cancelled` reply is the cancel's doing.
        let reply = try PluginJSON.decoder().decode(PluginReply<Outcome>.self, from: await call.wait())
        #expect(reply.error?.code == "cancelled")
        #expect(clock.now - started < .seconds(10))
        // Absence is the subject: the flow's own late reply, dropped, has no event to await.
        try await Task.sleep(for: .milliseconds(50))
        #expect(call.completionCount == 1)
    }

    @Test func cancelOfAnUnknownCallIsHarmless() async throws {
        let (driver, _) = driver()
        driver.cancel(999)
        let reply = try await driver.invoke(12, .authorize, AuthorizeRequest.test(), as: Outcome.self)
        #expect(reply.result?.kind == .authorized)
    }

    @Test func pluginSendReceivesTheHostsScriptedResponse() async throws {
        let (driver, host) = driver { request in
            OutboundResult(
                kind: .response, status: 201, headers: [HTTPHeader("x-refund-id", "r-77")],
                body: Data(#"{"ok":true}"#.utf8)
            )
        }
        let request = RefundRequest(
            payment: PaymentLocator(attemptId: "att-1", providerPaymentId: "p-1"), refundId: "ref-1", amount: 300,
            currency: "USD"
        )
        let reply = try await driver.invoke(20, .refund, request, as: Outcome.self)
        let outcome = try #require(reply.result)
        #expect(outcome.kind == .succeeded)
        #expect(outcome.providerStatus == "201")
        #expect(outcome.providerPaymentId == "r-77")
        #expect(outcome.message == #"{"ok":true}"#)
        let sent = try #require(host.sentRequests.first)
        #expect(sent.method == "POST")
        #expect(sent.url == "https://provider.test/refunds")
        #expect(sent.timeoutMs == 1500)
        #expect(sent.body == Data(#"{"amount":300}"#.utf8))
        #expect(
            host.logs == [
                ScriptedHost.LogLine(
                    level: Int32(SY_LOG_INFO), message: "refund requested", metadata: ["refund.id": "ref-1"])
            ])
    }

    /// A host that records from `warning` up is never handed the plugin's `info` line; a host whose table
    /// has no `log_level` (an older host) is handed every line.
    @Test(arguments: [Int32(SY_LOG_WARNING), nil])
    func aLineBelowTheHostsLevelStaysInThePlugin(_ level: Int32?) async throws {
        let host = ScriptedHost(logLevel: level) { _ in
            OutboundResult(kind: .response, status: 201, body: Data(#"{"ok":true}"#.utf8))
        }
        let driver = TableDriver(table: PluginExport.table(for: EchoTestProvider.self), host: host)
        let request = RefundRequest(
            payment: PaymentLocator(attemptId: "att-1", providerPaymentId: "p-1"), refundId: "ref-3", amount: 300,
            currency: "USD"
        )
        #expect(try await driver.invoke(22, .refund, request, as: Outcome.self).result?.kind == .succeeded)
        #expect(host.logs.map(\.message) == (level == nil ? ["refund requested"] : []))
    }

    @Test func pluginSendSeesNotSent() async throws {
        let (driver, _) = driver { _ in OutboundResult(kind: .notSent, reason: "connection refused") }
        let request = RefundRequest(
            payment: PaymentLocator(attemptId: "att-1", providerPaymentId: "p-1"), refundId: "ref-2", amount: 1,
            currency: "USD"
        )
        let reply = try await driver.invoke(21, .refund, request, as: Outcome.self)
        #expect(reply.result?.kind == .unknown)
    }

    @Test func pluginClockIsTheHostsClock() async throws {
        let (driver, host) = driver()
        let request = SyncRefundRequest(
            payment: PaymentLocator(attemptId: "a", providerPaymentId: nil), refundId: "r", providerRefundId: nil
        )
        let reply = try await driver.invoke(22, .syncRefund, request, as: Outcome.self)
        #expect(reply.result?.amount == host.nowMs)
    }

    @Test func createRefusesAHostOfAnotherABI() {
        let host = ScriptedHost { _ in OutboundResult(kind: .notSent) }
        host.table.pointee.abi_version = 99
        let table = PluginExport.table(for: EchoTestProvider.self)
        #expect(table.pointee.create!(host.table) == nil)
    }
}
