import Foundation
import ProviderSandbox
import SwitchyardCrypto
import Testing

@Suite struct AntomSignatureTests {
    private let lookup: [String: Any] = ["paymentRequestId": "nothing-here"]

    @Test func signedRequestsAreAnsweredSignedOnEveryPathForm() async throws {
        try await withAntomSandbox { sandbox in
            let prefixed = try await sandbox.client(prefix: "/antom")
            let root = try await sandbox.client(prefix: "")
            for (client, sandboxPath) in [(prefixed, true), (prefixed, false), (root, true), (root, false)] {
                let answer = try await client.call("payments/inquiryPayment", lookup, sandboxPath: sandboxPath)
                #expect(answer.status == 200)
                #expect(answer.resultCode == "ORDER_NOT_EXIST")
                #expect(answer.resultStatus == "F")
                #expect(answer.signatureValid == true)
                #expect(answer.headers["client-id"] == sandbox.clientId)
            }
        }
    }

    @Test func aPrefixedPathMaySignTheRootFormAndIsAnsweredOverIt() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client(prefix: "/antom")
            let answer = try await client.call(
                "payments/inquiryPayment", lookup, signedPath: "/ams/sandbox/api/v1/payments/inquiryPayment")
            #expect(answer.resultCode == "ORDER_NOT_EXIST")
            #expect(answer.signatureValid == true)
        }
    }

    @Test func bothRequestTimeFormsAreAccepted() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            for style in [AntomTimeStyle.millis, .iso] {
                let answer = try await client.call("payments/inquiryPayment", lookup, timeStyle: style)
                #expect(answer.resultCode == "ORDER_NOT_EXIST")
                #expect(answer.signatureValid == true)
            }
        }
    }

    @Test func signatureHeaderIsParsedTolerantly() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let answer = try await client.call("payments/inquiryPayment", lookup) { signature in
                "signature=\(signature), keyVersion=1, Algorithm=RSA256"
            }
            #expect(answer.resultCode == "ORDER_NOT_EXIST")
        }
    }

    @Test func badSignaturesAreAnsweredUnsigned() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let strangerKey = try await client.call(
                "payments/inquiryPayment", lookup, signingKey: AntomTestKeys.stranger)
            let wrongPath = try await client.call(
                "payments/inquiryPayment", lookup, signedPath: "/antom/ams/api/v1/payments/pay")
            let garbage = try await client.call("payments/inquiryPayment", lookup) { _ in
                "algorithm=RSA256,keyVersion=1,signature=bm90IGEgc2lnbmF0dXJl"
            }
            let missing = try await client.call("payments/inquiryPayment", lookup) { _ in "algorithm=RSA256" }
            for answer in [strangerKey, wrongPath, garbage, missing] {
                #expect(answer.status == 200)
                #expect(answer.resultStatus == "F")
                #expect(answer.resultCode == "INVALID_SIGNATURE")
                #expect(answer.signatureValid == nil)
                #expect(answer.headers["response-time"] == nil)
            }
        }
    }

    @Test func unknownClientAndKeyVersionAreRejectedUnsigned() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let unknown = try await client.call("payments/inquiryPayment", lookup, clientIdHeader: "SANDBOX_OTHER")
            #expect(unknown.resultCode == "INVALID_CLIENT")
            #expect(unknown.signatureValid == nil)
            let version = try await client.call("payments/inquiryPayment", lookup) { signature in
                "algorithm=RSA256,keyVersion=7,signature=\(signature)"
            }
            #expect(version.resultCode == "KEY_NOT_FOUND")
            #expect(version.signatureValid == nil)
        }
    }

    @Test func malformedBodiesAndMissingFieldsAreParamIllegalAndSigned() async throws {
        try await withAntomSandbox { sandbox in
            let client = try await sandbox.client()
            let malformed = try await client.call("payments/pay", [:], rawBody: Array("{not json".utf8))
            #expect(malformed.resultCode == "PARAM_ILLEGAL")
            #expect(malformed.signatureValid == true)
            var body = AntomBodies.walletPay(requestId: "p-1", amount: 1000, accessToken: "AT-nothing")
            body["paymentAmount"] = ["currency": "USD"]
            let missing = try await client.call("payments/pay", body)
            #expect(missing.resultCode == "PARAM_ILLEGAL")
            #expect((missing.result["resultMessage"] as? String)?.contains("paymentAmount.value") == true)
            #expect(missing.signatureValid == true)
            body["paymentAmount"] = ["currency": "USD", "value": "12.5"]
            let fractional = try await client.call("payments/pay", body)
            #expect(fractional.resultCode == "PARAM_ILLEGAL")
            let wrongType = try await client.call("payments/inquiryPayment", ["paymentId": ["nested": true]])
            #expect(wrongType.resultCode == "PARAM_ILLEGAL")
        }
    }

    @Test func publicKeyIsServedAndAConfiguredKeySignsTheAnswers() async throws {
        let antomKey = try RSAPrivateKey.generate(bits: 2048)
        try await withAntomSandbox(privateKeyPEM: antomKey.pkcs8PEM) { sandbox in
            let served = try await send(.get, sandbox.admin + "/public-key")
            let bare = try #require(served.object["publicKey"] as? String)
            #expect(bare == Data(antomKey.publicKey.spkiDER).base64EncodedString())
            #expect((served.object["pem"] as? String)?.contains("BEGIN PUBLIC KEY") == true)
            #expect(try await sandbox.antom.publicKeyBase64() == bare)
            let client = AntomTestClient(
                baseURL: sandbox.baseURL, prefix: "", clientId: sandbox.clientId, key: AntomTestKeys.merchant,
                antomKey: antomKey.publicKey, clock: sandbox.clock)
            let answer = try await client.call("payments/inquiryPayment", lookup)
            #expect(answer.signatureValid == true)
        }
    }

    @Test func configurationValidationNamesTheBadKey() {
        let bad = AntomSandboxConfiguration(
            merchants: [AntomSandboxMerchant(clientId: "SANDBOX_BAD", merchantPublicKey: "not a key")])
        #expect(throws: AntomSandboxError.self) { try bad.validate() }
        let good = AntomSandboxConfiguration(
            merchants: [
                AntomSandboxMerchant(clientId: "SANDBOX_PEM", merchantPublicKey: AntomTestKeys.merchant.publicKey.pem),
                AntomSandboxMerchant(clientId: "SANDBOX_B64", merchantPublicKey: AntomTestKeys.merchantPublicBase64),
            ])
        #expect(throws: Never.self) { try good.validate() }
    }

    @Test func requestFaultsMatchTheClientId() async throws {
        try await withAntomSandbox { sandbox in
            await sandbox.antom.addFaults([
                SandboxFault(
                    kind: .http503, pathPrefix: "/ams/sandbox/api/v1/payments", merchant: sandbox.clientId, count: 1)
            ])
            let client = try await sandbox.client()
            let failed = try await client.call("payments/inquiryPayment", lookup)
            #expect(failed.status == 503)
            let next = try await client.call("payments/inquiryPayment", lookup)
            #expect(next.resultCode == "ORDER_NOT_EXIST")
            #expect(await sandbox.antom.activeFaults().isEmpty)
        }
    }
}
