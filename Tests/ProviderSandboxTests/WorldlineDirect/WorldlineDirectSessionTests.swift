import Foundation
import ProviderSandbox
import SwitchyardCrypto
import Testing

@Suite struct WorldlineDirectSessionTests {
    /// Fetches the public key over the client API, as OnlinePaymentsKit does.
    private func publicKey(
        _ clientApiUrl: String, session: (sessionId: String, customerId: String, clientApiUrl: String)
    )
        async throws -> (keyId: String, key: RSAPublicKey)
    {
        let reply = try await wlSend(
            "GET", "\(clientApiUrl)/v1/\(session.customerId)/crypto/publickey",
            headers: [("Authorization", "GCS v1Client:\(session.sessionId)"), ("X-GCS-ClientMetaInfo", "e30=")])
        #expect(reply.status == 200)
        let der = try #require(reply.string("publicKey").flatMap { Data(base64Encoded: $0) })
        return (try #require(reply.string("keyId")), try RSAPublicKey(spkiDER: Array(der)))
    }

    private func paymentBody(_ jwe: String, mode: String = "SALE") -> [String: Any] {
        [
            "order": ["amountOfMoney": ["amount": 2500, "currencyCode": "EUR"]],
            "cardPaymentMethodSpecificInput": ["authorizationMode": mode],
            "encryptedCustomerInput": jwe,
        ]
    }

    @Test func sessionPublicKeyAndJWERoundTrip() async throws {
        try await withWorldlineSandbox { sandbox in
            let session = try await sandbox.m1.createSession()
            let (keyId, key) = try await publicKey(session.clientApiUrl, session: session)
            #expect(key.spkiDER.count > 200)
            // Built here the way the SDK does: spaced header text, RSA-OAEP (SHA-1), A256CBC-HS512.
            let plaintext = try JSONSerialization.data(withJSONObject: [
                "clientSessionId": session.sessionId, "nonce": UUID().uuidString, "paymentProductId": 1,
                "paymentValues": [
                    ["key": "cardNumber", "value": WorldlineDirectTestCard.authorised],
                    ["key": "expiryDate", "value": "1230"], ["key": "cvv", "value": "123"],
                    ["key": "cardholderName", "value": "Test Holder"],
                ],
            ])
            let header = "{\"alg\":\"RSA-OAEP\", \"enc\":\"A256CBC-HS512\", \"kid\":\"\(keyId)\"}"
            let jwe = try JWE.encrypt(
                plaintext: Array(plaintext), recipient: key, keyId: keyId, algorithm: "RSA-OAEP", headerText: header)
            let reply = try await sandbox.m1.call("POST", "payments", json: paymentBody(jwe))
            #expect(reply.status == 201)
            #expect(reply.payment["status"] as? String == "CAPTURED")
            let id = try #require(reply.payment["id"] as? String)
            let payment = try #require(await sandbox.server.worldlineDirect.payment(id: id))
            #expect(payment.encrypted)
            #expect(payment.maskedCardNumber == "************0026")
            #expect(payment.amount == 2500)
        }
    }

    @Test func swiftHelperAndHTTPEncryptEndpointProduceAcceptedInput() async throws {
        try await withWorldlineSandbox { sandbox in
            let first = try await sandbox.m1.createSession()
            let jwe = try await sandbox.server.worldlineDirect.encryptCustomerInput(
                clientSessionId: first.sessionId, customerId: first.customerId,
                card: WorldlineDirectCardInput(
                    cardNumber: WorldlineDirectTestCard.authorised, expiryDate: "1230", cvv: "123"))
            let headerJSON = try #require(Base64URL.decode(String(jwe.split(separator: ".")[0])))
            #expect(String(decoding: headerJSON, as: UTF8.self).contains("\"alg\":\"RSA-OAEP\", \"enc\""))
            let reply = try await sandbox.m1.call(
                "POST", "payments", json: paymentBody(jwe, mode: "FINAL_AUTHORIZATION"))
            #expect(reply.status == 201)
            #expect(reply.payment["status"] as? String == "PENDING_CAPTURE")

            let second = try await sandbox.m1.createSession()
            let encrypted = try await wlSend(
                "POST", sandbox.admin + "/encrypt",
                json: [
                    "clientSessionId": second.sessionId, "customerId": second.customerId,
                    "cardNumber": WorldlineDirectTestCard.authorised, "expiryDate": "1230", "cvv": "123",
                    "cardholderName": "Test Holder",
                ])
            let jwe2 = try #require(encrypted.string("encryptedCustomerInput"))
            let reply2 = try await sandbox.m1.call("POST", "payments", json: paymentBody(jwe2))
            #expect(reply2.status == 201)
        }
    }

    @Test func reusedSessionIsRejected() async throws {
        try await withWorldlineSandbox { sandbox in
            let session = try await sandbox.m1.createSession()
            let card = WorldlineDirectCardInput(cardNumber: WorldlineDirectTestCard.authorised, expiryDate: "1230")
            let helper = sandbox.server.worldlineDirect
            let first = try await helper.encryptCustomerInput(
                clientSessionId: session.sessionId, customerId: session.customerId, card: card)
            let second = try await helper.encryptCustomerInput(
                clientSessionId: session.sessionId, customerId: session.customerId, card: card)
            #expect(try await sandbox.m1.call("POST", "payments", json: paymentBody(first)).status == 201)
            let reused = try await sandbox.m1.call("POST", "payments", json: paymentBody(second))
            #expect(reused.status == 400)
            #expect(reused.errorCode == "40001011")
        }
    }

    @Test func expiredSessionIsRejected() async throws {
        try await withWorldlineSandbox { sandbox in
            let session = try await sandbox.m1.createSession()
            let jwe = try await sandbox.server.worldlineDirect.encryptCustomerInput(
                clientSessionId: session.sessionId, customerId: session.customerId,
                card: WorldlineDirectCardInput(cardNumber: WorldlineDirectTestCard.authorised, expiryDate: "1230"))
            sandbox.clock.advance(by: 3 * 3600 + 1)
            let reply = try await sandbox.m1.call("POST", "payments", json: paymentBody(jwe))
            #expect(reply.status == 400)
            #expect(reply.errorCode == "40001010")
            let key = try await wlSend(
                "GET", "\(session.clientApiUrl)/v1/\(session.customerId)/crypto/publickey",
                headers: [("Authorization", "GCS v1Client:\(session.sessionId)")])
            #expect(key.status == 400)
        }
    }

    @Test func tamperedInputAndUnknownSessionAreRejected() async throws {
        try await withWorldlineSandbox { sandbox in
            let session = try await sandbox.m1.createSession()
            let jwe = try await sandbox.server.worldlineDirect.encryptCustomerInput(
                clientSessionId: session.sessionId, customerId: session.customerId,
                card: WorldlineDirectCardInput(cardNumber: WorldlineDirectTestCard.authorised, expiryDate: "1230"))
            var parts = jwe.split(separator: ".").map(String.init)
            parts[3] = String(parts[3].reversed())
            let tampered = try await sandbox.m1.call(
                "POST", "payments", json: paymentBody(parts.joined(separator: ".")))
            #expect(tampered.status == 400)
            #expect(tampered.errorCode == "40001013")
            let key = try await wlSend(
                "GET", "\(session.clientApiUrl)/v1/\(session.customerId)/crypto/publickey",
                headers: [("Authorization", "GCS v1Client:not-a-session")])
            #expect(key.status == 401)
        }
    }

    @Test func productsListsCardProducts() async throws {
        try await withWorldlineSandbox { sandbox in
            let session = try await sandbox.m1.createSession()
            let reply = try await wlSend(
                "GET",
                "\(session.clientApiUrl)/v1/\(session.customerId)/products?countryCode=FR&currencyCode=EUR&amount=100",
                headers: [("Authorization", "GCS v1Client:\(session.sessionId)")])
            #expect(reply.status == 200)
            let products = try #require(reply.object["paymentProducts"] as? [[String: Any]])
            #expect(products.compactMap { $0["id"] as? Int }.sorted() == [1, 2, 3])
        }
    }
}
