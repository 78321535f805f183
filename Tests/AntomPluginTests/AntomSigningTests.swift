import Foundation
import ProviderKit
import SwitchyardCrypto
import Testing

@testable import AntomPlugin

@Suite struct AntomSigningTests {
    static let body = #"{"paymentRequestId":"att_1","paymentAmount":{"currency":"USD","value":"1000"}}"#

    @Test func contentIsMethodPathClientTimeAndBody() {
        let content = AntomSigning.content(
            path: "/ams/api/v1/payments/pay", clientId: "SANDBOX_5X00000000000000", time: "1685599933871",
            body: Array(Self.body.utf8))
        #expect(
            String(decoding: content, as: UTF8.self)
                == "POST /ams/api/v1/payments/pay\nSANDBOX_5X00000000000000.1685599933871." + Self.body)
    }

    @Test func signatureVerifiesWithThePublicKeyOnly() throws {
        let content = Array("POST /x\nc.1.{}".utf8)
        let encoded = try AntomSigning.sign(content, with: Fixtures.merchantKey)
        let header = AntomSigning.header(keyVersion: "1", encodedSignature: encoded)
        #expect(header.hasPrefix("algorithm=RSA256,keyVersion=1,signature="))
        #expect(AntomSigning.verify(content, headerValue: header, key: Fixtures.merchantKey.publicKey))
        #expect(!AntomSigning.verify(content, headerValue: header, key: Fixtures.antomKey.publicKey))
        #expect(
            !AntomSigning.verify(
                Array("POST /x\nc.1.{ }".utf8), headerValue: header, key: Fixtures.merchantKey.publicKey))
        #expect(
            !AntomSigning.verify(
                content, headerValue: "algorithm=RSA256,keyVersion=1", key: Fixtures.merchantKey.publicKey))
        let otherAlgorithm = "algorithm=RSA512,keyVersion=1,signature=\(encoded)"
        #expect(!AntomSigning.verify(content, headerValue: otherAlgorithm, key: Fixtures.merchantKey.publicKey))
    }

    @Test func signatureIsBase64ThenURLEncoded() throws {
        let encoded = try AntomSigning.sign(Array("abc".utf8), with: Fixtures.merchantKey)
        #expect(!encoded.contains("+") && !encoded.contains("/") && !encoded.contains("="))
        let decoded = try #require(FormEncoding.percentDecode(encoded))
        let raw = try #require(Base64.decode(decoded))
        #expect(raw.count == 256)
        #expect(Fixtures.merchantKey.publicKey.verifySHA256(signature: raw, message: Array("abc".utf8)))
    }

    @Test func urlEncodingIsQuotePlus() {
        #expect(FormEncoding.quotePlus("a+b/c=d") == "a%2Bb%2Fc%3Dd")
        #expect(FormEncoding.quotePlus("AZaz09_.-~") == "AZaz09_.-~")
        #expect(FormEncoding.quotePlus("a b&é") == "a+b%26%C3%A9")
        #expect(FormEncoding.percentDecode("a%2Bb%2fc%3Dd") == "a+b/c=d")
        #expect(FormEncoding.percentDecode("raw+base64/==") == "raw+base64/==")
        #expect(FormEncoding.percentDecode("bad%2") == nil)
        #expect(FormEncoding.percentDecode("bad%zz") == nil)
    }

    @Test func headerParsingIsTolerant() {
        let compact = AntomSigning.parseHeader("algorithm=RSA256,keyVersion=1,signature=abc%3D")
        #expect(compact == AntomSignatureHeader(algorithm: "RSA256", keyVersion: "1", signature: "abc%3D"))
        let spaced = AntomSigning.parseHeader("algorithm=RSA256, keyVersion=2, signature=abc%3D")
        #expect(spaced == AntomSignatureHeader(algorithm: "RSA256", keyVersion: "2", signature: "abc%3D"))
        let reordered = AntomSigning.parseHeader(" Signature=x== , KeyVersion=3 ,Algorithm=RSA256")
        #expect(reordered == AntomSignatureHeader(algorithm: "RSA256", keyVersion: "3", signature: "x=="))
        #expect(AntomSigning.parseHeader("algorithm=RSA256,keyVersion=1") == nil)
        #expect(AntomSigning.parseHeader("signature=") == nil)
        #expect(AntomSigning.parseHeader("") == nil)
    }

    @Test func unencodedSignaturesAndSpacedHeadersVerify() throws {
        let content = Array("POST /n\nc.t.{}".utf8)
        let raw = Base64.encode(try Fixtures.merchantKey.signSHA256(content))
        let header = "algorithm=RSA256, keyVersion=1, signature=\(raw)"
        #expect(AntomSigning.verify(content, headerValue: header, key: Fixtures.merchantKey.publicKey))
    }

    @Test func requestTimeIsEpochMilliseconds() {
        #expect(AntomSigning.requestTime(Date(timeIntervalSince1970: 1_685_599_933.871_4)) == "1685599933871")
        #expect(AntomSigning.requestTime(Fixtures.now) == "1762600000000")
    }

    @Test func pathsKeepTheBaseURLPrefixAndTheSandboxSegment() throws {
        let sandbox = try #require(
            AntomMapping.endpoint(base: "http://127.0.0.1:1/antom/", call: .pay, clientId: "SANDBOX_5X00000000000000"))
        #expect(sandbox.url == "http://127.0.0.1:1/antom/ams/sandbox/api/v1/payments/pay")
        #expect(sandbox.path == "/antom/ams/sandbox/api/v1/payments/pay")
        let live = try #require(
            AntomMapping.endpoint(
                base: "https://open-na-global.alipay.com", call: .inquireVaulting, clientId: "5X00000000000000"))
        #expect(live.url == "https://open-na-global.alipay.com/ams/api/v1/vaults/inquireVaulting")
        #expect(live.path == "/ams/api/v1/vaults/inquireVaulting")
        #expect(AntomMapping.endpoint(base: "open-na-global.alipay.com", call: .pay, clientId: "c") == nil)
        #expect(AntomMapping.endpoint(base: "ftp://h/x", call: .pay, clientId: "c") == nil)
    }

    @Test func sentRequestsCarryAVerifiableSignature() async throws {
        let answer = "{\(Fixtures.result()),\"paymentId\":\"p\"}"
        let host = FakeHost(routes: [Fixtures.route("payments/pay"): Fixtures.signed("payments/pay", answer)])
        let credential = StoredCredential(id: "pm_1", kind: "wallet_agreement", token: Fixtures.accessToken)
        _ = try await AntomProvider(host: host).authorize(
            Fixtures.authorizeRequest(credential: credential), account: Fixtures.account(keyVersion: "2"))
        let request = try #require(host.requests.first)
        #expect(request.method == "POST")
        #expect(request.url == Fixtures.baseURL + "/ams/sandbox/api/v1/payments/pay")
        #expect(Fixtures.header("Content-Type", of: request) == "application/json; charset=UTF-8")
        #expect(Fixtures.header("client-id", of: request) == Fixtures.clientId)
        #expect(Fixtures.header("request-time", of: request) == "1762600000000")
        let signature = try #require(Fixtures.header("signature", of: request))
        #expect(signature.hasPrefix("algorithm=RSA256,keyVersion=2,signature="))
        let content = AntomSigning.content(
            path: "/antom/ams/sandbox/api/v1/payments/pay", clientId: Fixtures.clientId, time: "1762600000000",
            body: Array(try #require(request.body)))
        #expect(AntomSigning.verify(content, headerValue: signature, key: Fixtures.merchantKey.publicKey))
    }

    @Test func keyVersionDefaultsToOne() async throws {
        let host = FakeHost()
        _ = try await AntomProvider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        #expect(
            Fixtures.header("signature", of: host.requests.first)?.hasPrefix("algorithm=RSA256,keyVersion=1,") == true)
    }
}
