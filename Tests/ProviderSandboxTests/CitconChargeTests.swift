import Foundation
import ProviderSandbox
import Testing

@Suite struct CitconChargeTests {
    @Test func chargeThenConfirmSucceedsAndIsInTheLedger() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            let created = try await sandbox.citcon.createCharge(token: token, reference: "order-1", amount: 1250)
            #expect(created.status == 200)
            #expect(created.string("object") == "charge")
            #expect(created.string("status") == "initiated")
            let id = try #require(created.string("id"))
            #expect(id.count == 22 && id.allSatisfy(\.isNumber))
            let chargeToken = try #require(created.string("charge_token"))
            #expect(chargeToken.count == 32 && chargeToken.allSatisfy(\.isHexDigit))
            let createdAt = try #require(created.int("time_created"))
            #expect(created.int("expiry") == createdAt + 1800)
            #expect(await sandbox.server.citcon.ledger().isEmpty)

            let confirmed = try await sandbox.citcon.confirm(
                token: token, chargeToken: chargeToken, method: "wechatpay")
            #expect(confirmed.status == 200)
            #expect(confirmed.string("status") == "succeeded")
            #expect(confirmed.int("amount_captured") == 1250)
            #expect((confirmed.data["payment"] as? [String: Any])?["method"] as? String == "wechatpay")

            let ledger = await sandbox.server.citcon.ledger()
            #expect(ledger.count == 1)
            let entry = try #require(ledger.first)
            #expect(entry.kind == .charge)
            #expect(entry.merchant == "m1")
            #expect(entry.chargeID == id)
            #expect(entry.reference == "order-1")
            #expect(entry.amount == 1250)
            #expect(entry.currency == "USD")
            #expect(entry.time == sandbox.clock.now)

            let overHTTP = try await send(.get, sandbox.adminURL + "/ledger")
            let entries = try #require(overHTTP.json as? [[String: Any]])
            #expect(entries.count == 1)
            #expect(entries.first?["kind"] as? String == "charge")
            #expect(entries.first?["chargeID"] as? String == id)
            #expect((entries.first?["amount"] as? NSNumber)?.int64Value == 1250)
            let otherMerchant = try await send(.get, sandbox.adminURL + "/ledger?merchant=m2")
            #expect((otherMerchant.json as? [Any])?.isEmpty == true)
        }
    }

    @Test func confirmHelperAuthorisesWithoutAutoCaptureAndSecondConfirmIsRefused() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            let created = try await sandbox.citcon.createCharge(
                token: token,
                reference: "order-2",
                amount: 900,
                autoCapture: false
            )
            let chargeToken = try #require(created.string("charge_token"))
            let charge = try await sandbox.server.citcon.confirm(chargeToken: chargeToken, method: "alipay")
            #expect(charge.status == .authorized)
            #expect(charge.amountCaptured == 0)
            #expect(await sandbox.server.citcon.ledger().map(\.kind) == [.charge])

            let again = try await sandbox.citcon.confirm(token: token, chargeToken: chargeToken)
            #expect(again.status == 400)
            #expect(again.code == "4101")
            await #expect(throws: CitconSandboxError.self) {
                try await sandbox.server.citcon.confirm(chargeToken: chargeToken, method: "alipay")
            }

            let unknown = try await sandbox.citcon.confirm(token: token, chargeToken: String(repeating: "0", count: 32))
            #expect(unknown.status == 404)
            #expect(unknown.code == "4004")
        }
    }

    @Test func pendingChargeExpires() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            let created = try await sandbox.citcon.createCharge(token: token, reference: "order-3", amount: 100)
            sandbox.clock.advance(by: 31 * 60)
            let late = try await sandbox.citcon.confirm(
                token: token, chargeToken: try #require(created.string("charge_token")))
            #expect(late.status == 400)
            #expect(late.code == "4102")
            let inquiry = try await sandbox.citcon.inquire(token: token, id: "order-3")
            #expect(inquiry.string("status") == "expired")
            #expect(await sandbox.server.citcon.ledger().isEmpty)
        }
    }

    @Test func duplicateReferenceIsRefusedWith4100PerMerchant() async throws {
        try await withSandbox { sandbox in
            let m1 = try await sandbox.citcon.token()
            let m2 = try await sandbox.citcon.token(TestMerchants.m2.privateKey)
            #expect(try await sandbox.citcon.createCharge(token: m1, reference: "dup-1", amount: 100).status == 200)
            let duplicate = try await sandbox.citcon.createCharge(token: m1, reference: "dup-1", amount: 200)
            #expect(duplicate.status == 400)
            #expect(duplicate.code == "4100")
            #expect(duplicate.data["message"] as? String == "duplicate request")
            let otherMerchant = try await sandbox.citcon.createCharge(token: m2, reference: "dup-1", amount: 100)
            #expect(otherMerchant.status == 200)
        }
    }

    @Test func invalidChargeBodiesAreRefusedWith4000() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            let zero = try await sandbox.citcon.createCharge(token: token, reference: "bad-1", amount: 0)
            #expect(zero.status == 400)
            #expect(zero.code == "4000")
            let noTransaction = try await send(
                .post, sandbox.citcon.baseURL + "/v1/charges", bearer: token, json: ["urls": [:]])
            #expect(noTransaction.code == "4000")
            // A refused request does not burn the reference.
            #expect(try await sandbox.citcon.createCharge(token: token, reference: "bad-1", amount: 10).status == 200)
        }
    }

    @Test func inquiryByIdAndByReference() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            let confirmed = try await sandbox.citcon.paidCharge(token: token, reference: "inq-1", amount: 4200)
            let id = try #require(confirmed.string("id"))

            let byID = try await sandbox.citcon.inquire(token: token, id: id)
            #expect(byID.status == 200)
            #expect(byID.string("reference") == "inq-1")
            #expect(byID.string("status") == "succeeded")
            #expect(byID.int("amount") == 4200)
            #expect(byID.int("amount_captured") == 4200)
            #expect(byID.int("amount_refunded") == 0)
            #expect(byID.int("time_captured") != nil)
            #expect(byID.data.keys.contains("time_canceled"))

            let byReference = try await sandbox.citcon.inquire(token: token, id: "inq-1")
            #expect(byReference.string("id") == id)

            let unknown = try await sandbox.citcon.inquire(token: token, id: "no-such-order")
            #expect(unknown.status == 404)
            #expect(unknown.code == "4004")

            let otherMerchant = try await sandbox.citcon.token(TestMerchants.m2.privateKey)
            #expect(try await sandbox.citcon.inquire(token: otherMerchant, id: id).status == 404)
        }
    }
}
