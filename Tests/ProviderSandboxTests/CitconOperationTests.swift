import Foundation
import ProviderSandbox
import Testing

@Suite struct CitconOperationTests {
    @Test func partialCapturesNeverExceedTheAuthorisedAmount() async throws {
        try await withSandbox { sandbox in
            let citcon = sandbox.citcon
            let token = try await citcon.token()
            let initiated = try await citcon.createCharge(
                token: token, reference: "cap-0", amount: 1000, autoCapture: false)
            let notAuthorised = try await citcon.capture(
                token: token,
                id: try #require(initiated.string("id")),
                reference: "cap-0-a",
                amount: 100
            )
            #expect(notAuthorised.status == 400)
            #expect(notAuthorised.code == "4201")

            let authorised = try await citcon.paidCharge(
                token: token, reference: "cap-1", amount: 1000, autoCapture: false)
            #expect(authorised.string("status") == "authorized")
            let id = try #require(authorised.string("id"))

            let first = try await citcon.capture(token: token, id: id, reference: "cap-1-a", amount: 400)
            #expect(first.status == 200)
            #expect(first.string("object") == "capture")
            #expect(first.string("status") == "succeeded")
            #expect(first.string("transaction_id") == id)
            #expect(first.int("amount") == 400)

            let over = try await citcon.capture(token: token, id: id, reference: "cap-1-b", amount: 700)
            #expect(over.status == 400)
            #expect(over.code == "4203")

            let reused = try await citcon.capture(token: token, id: id, reference: "cap-1-a", amount: 100)
            #expect(reused.code == "4100")

            let rest = try await citcon.capture(token: token, id: id, reference: "cap-1-b", amount: 600)
            #expect(rest.status == 200)
            let inquiry = try await citcon.inquire(token: token, id: id)
            #expect(inquiry.string("status") == "captured")
            #expect(inquiry.int("amount_captured") == 1000)
            #expect(try await citcon.capture(token: token, id: id, reference: "cap-1-c", amount: 1).code == "4203")

            let captures = await sandbox.server.citcon.ledger().filter { $0.kind == .capture }
            #expect(captures.map(\.amount) == [400, 600])
            #expect(captures.map(\.reference) == ["cap-1-a", "cap-1-b"])
            #expect(captures.allSatisfy { $0.chargeID == id && $0.chargeReference == "cap-1" })
        }
    }

    @Test func partialRefundsNeverExceedCapturedMinusRefunded() async throws {
        try await withSandbox { sandbox in
            let citcon = sandbox.citcon
            let token = try await citcon.token()
            let authorised = try await citcon.paidCharge(
                token: token, reference: "ref-0", amount: 500, autoCapture: false)
            let notCaptured = try await citcon.refund(
                token: token,
                id: try #require(authorised.string("id")),
                reference: "ref-0-a",
                amount: 100
            )
            #expect(notCaptured.status == 400)
            #expect(notCaptured.code == "4206")

            let paid = try await citcon.paidCharge(token: token, reference: "ref-1", amount: 1000)
            let id = try #require(paid.string("id"))
            let first = try await citcon.refund(token: token, id: id, reference: "ref-1-a", amount: 300)
            #expect(first.status == 200)
            #expect(first.string("object") == "refund")
            #expect(first.string("status") == "succeeded")
            #expect(first.int("amount") == 300)
            #expect(first.int("amount_refunded") == 300)

            let over = try await citcon.refund(token: token, id: id, reference: "ref-1-b", amount: 800)
            #expect(over.status == 400)
            #expect(over.code == "4208")

            let rest = try await citcon.refund(token: token, id: id, reference: "ref-1-c", amount: 700)
            #expect(rest.int("amount_refunded") == 1000)
            #expect(try await citcon.refund(token: token, id: id, reference: "ref-1-d", amount: 1).code == "4208")
            #expect(try await citcon.inquire(token: token, id: id).int("amount_refunded") == 1000)

            let refunds = await sandbox.server.citcon.ledger().filter { $0.kind == .refund }
            #expect(refunds.map(\.amount) == [300, 700])
        }
    }

    @Test func cancelOfInitiatedAndAuthorisedChargesButNotOfCapturedOnes() async throws {
        try await withSandbox { sandbox in
            let citcon = sandbox.citcon
            let token = try await citcon.token()

            let initiated = try await citcon.createCharge(token: token, reference: "can-1", amount: 300)
            let initiatedID = try #require(initiated.string("id"))
            let canceled = try await citcon.cancel(
                token: token, id: initiatedID, reference: "can-1-x", chargeReference: "can-1")
            #expect(canceled.status == 200)
            #expect(canceled.string("object") == "cancel")
            #expect(canceled.string("status") == "canceled")
            #expect(try await citcon.inquire(token: token, id: initiatedID).string("status") == "canceled")
            let lateConfirm = try await citcon.confirm(
                token: token, chargeToken: try #require(initiated.string("charge_token")))
            #expect(lateConfirm.code == "4101")

            let authorised = try await citcon.paidCharge(
                token: token, reference: "can-2", amount: 800, autoCapture: false)
            let voided = try await citcon.cancel(
                token: token,
                id: try #require(authorised.string("id")),
                reference: "can-2-x",
                chargeReference: "can-2"
            )
            #expect(voided.string("status") == "canceled")

            let captured = try await citcon.paidCharge(token: token, reference: "can-3", amount: 700)
            let refused = try await citcon.cancel(
                token: token,
                id: try #require(captured.string("id")),
                reference: "can-3-x",
                chargeReference: "can-3"
            )
            #expect(refused.status == 400)
            #expect(refused.code == "4205")
            #expect(try await citcon.inquire(token: token, id: "can-3").string("status") == "succeeded")

            let cancels = await sandbox.server.citcon.ledger().filter { $0.kind == .cancel }
            #expect(cancels.map(\.chargeReference) == ["can-1", "can-2"])
            #expect(cancels.map(\.amount) == [0, 800])
        }
    }
}
