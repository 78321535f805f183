import AsyncHTTPClient
import Foundation
import NIOCore
import ProviderSandbox
import Testing

@Suite struct SipsThreeDSecureTests {
    /// Init with THREEDSECUREANDORDER, then `cardCheckEnrollment` with the enrolled card.
    private func enroll(_ sandbox: SipsTestSandbox, reference: String, url: String? = nil) async throws -> (
        SipsReply, SipsReply
    ) {
        let initReply = try await sandbox.client().initOrder(
            reference: reference, operation: "THREEDSECUREANDORDER", automaticResponseUrl: url)
        let enrollment = try await sandbox.app().call(
            "cardCheckEnrollment", on: initReply,
            ["cardNumber": WorldlineSipsTestCard.enrolled, "cardExpiryDate": "203012", "cardCSCValue": "123"])
        return (initReply, enrollment)
    }

    @Test func approvedAuthenticationAuthorisesTheEnrolledCard() async throws {
        try await withSipsReceiver { url, inbox in
            try await withSipsSandbox { sandbox in
                let (_, enrollment) = try await enroll(sandbox, reference: "tds1", url: url)
                #expect(enrollment.sealValid == true)
                #expect(enrollment.string("redirectionStatusCode") == "00")
                #expect(enrollment.string("authentRedirectionUrl") == sandbox.baseURL + "/sips/acs")
                #expect(enrollment.string("redirectionUrl") == sandbox.baseURL + "/sips/inapp")
                #expect(enrollment.string("maskedPan") == "4100##########01")
                let paReq = try #require(enrollment.string("paReqMessage"))
                let page = try await send(.get, sandbox.baseURL + "/sips/acs?PaReq=" + paReq)
                #expect(page.status == 200)
                #expect(String(decoding: page.body, as: UTF8.self).contains(paReq))

                let acs = try await sandbox.adminPost("acs/authenticate", ["paReqMessage": paReq, "approve": true])
                let paRes = try #require(acs.object["paResMessage"] as? String)
                let order = try await sandbox.app().call(
                    enrollment.string("redirectionUrl") ?? "", "cardValidateAuthenticationAndOrder",
                    [
                        "transactionContextData": enrollment.string("transactionContextData") ?? "",
                        "transactionContextVersion": enrollment.string("transactionContextVersion") ?? "",
                        "paResMessage": paRes,
                    ])
                #expect(order.sealValid == true)
                #expect(order.string("inAppResponseCode") == "00")
                #expect(order.string("holderAuthentStatus") == "SUCCESS")
                let data = try await sandbox.client().transactionData("tds1")
                #expect(data.string("transactionStatus") == "CAPTURED")
                #expect(data.string("holderAuthentStatus") == "SUCCESS")
                try await eventually("automatic response") { await inbox.about("tds1").count == 1 }
                #expect(await inbox.about("tds1").first?["holderAuthentStatus"] == "SUCCESS")
                #expect(await sandbox.sips.ledger().map(\.kind) == ["charge"])
            }
        }
    }

    @Test func refusedAuthenticationDeclinesThroughTheACSPage() async throws {
        try await withSipsSandbox { sandbox in
            let (initReply, enrollment) = try await enroll(sandbox, reference: "tds2")
            let paReq = try #require(enrollment.string("paReqMessage"))
            var request = HTTPClientRequest(url: sandbox.baseURL + "/sips/acs/answer")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: "PaReq=\(paReq)&MD=md1&approve=false"))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            let html = String(buffer: try await response.body.collect(upTo: 1 << 16))
            let start = try #require(html.range(of: "<p id=\"PaRes\">"))
            let end = try #require(html.range(of: "</p>", range: start.upperBound..<html.endIndex))
            let paRes = String(html[start.upperBound..<end.lowerBound])

            let wrongPaRes = try await sandbox.app().call(
                initReply.string("redirectionUrl") ?? "", "cardValidateAuthenticationAndOrder",
                [
                    "transactionContextData": enrollment.string("transactionContextData") ?? "",
                    "transactionContextVersion": "1", "paResMessage": "forged",
                ])
            #expect(wrongPaRes.string("inAppResponseCode") == "30")
            #expect(wrongPaRes.string("errorFieldName") == "paResMessage")

            let order = try await sandbox.app().call(
                initReply.string("redirectionUrl") ?? "", "cardValidateAuthenticationAndOrder",
                [
                    "transactionContextData": enrollment.string("transactionContextData") ?? "",
                    "transactionContextVersion": "1", "paResMessage": paRes,
                ])
            #expect(order.string("responseCode") == "05")
            #expect(order.string("holderAuthentStatus") == "FAILURE")
            #expect(try await sandbox.client().transactionData("tds2").string("transactionStatus") == "REFUSED")
            #expect(await sandbox.sips.ledger().isEmpty)
        }
    }

    @Test func functionMustMatchTheInitOperation() async throws {
        try await withSipsSandbox { sandbox in
            let (initReply, _) = try await enroll(sandbox, reference: "tds3")
            let order = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.visa)
            #expect(order.string("inAppResponseCode") == "12")
            #expect(order.sealValid == true)
            let plain = try await sandbox.client().initOrder(reference: "tds4")
            let enrollment = try await sandbox.app().call(
                "cardCheckEnrollment", on: plain,
                ["cardNumber": WorldlineSipsTestCard.enrolled, "cardExpiryDate": "203012"])
            #expect(enrollment.string("redirectionStatusCode") == "12")
            let unknown = try await sandbox.adminPost("acs/authenticate", ["paReqMessage": "nope", "approve": true])
            #expect(unknown.status == 404)
        }
    }
}
