import SwitchyardCrypto
import Testing

/// Published provider signature vectors (PROVIDERS.md), checked at the primitive level.
struct ProviderVectorTests {
    @Test func directV1HMACPostStringToSign() {
        let stringToSign =
            "POST\napplication/json\nFri, 06 Jun 2014 13:39:43 GMT\n"
            + "x-gcs-idempotence-key:idem-1\nx-gcs-servermetainfo:eyJzZGsiOiJ0ZXN0In0=\n/v2/MERCH1/payments\n"
        let signature = HMAC.sha256(key: "secret-key-abc", message: stringToSign).base64
        #expect(signature == "wgmnJcO4+6apek4X3EuUNvAJnugf6xWQ5AWRxcPRkJE=")
    }

    @Test func directV1HMACGetStringToSign() {
        let stringToSign = "GET\n\nFri, 06 Jun 2014 13:39:43 GMT\n/v2/MERCH1/payments/PAY1?foo=bar%20baz\n"
        let signature = Base64.encode(HMAC.sha256(key: "secret-key-abc", message: stringToSign))
        #expect(signature == "npkksz/G305Jf3aQ+lXKzp1JdDrmReAhk0iJKqzaGxU=")
    }

    @Test func directWebhookSignature() {
        let body = utf8(#"{"apiVersion":"v1","id":"evt1","type":"payment.captured"}"#)
        let signature = HMAC.sha256(key: "webhook-secret", message: body)
        #expect(signature.base64 == "Rv+PdzasZvdNyQcC/dkfIrT2rCS/lDNa1cTAqlxPGto=")
        #expect([UInt8](base64: "Rv+PdzasZvdNyQcC/dkfIrT2rCS/lDNa1cTAqlxPGto=") == signature)
    }

    @Test func sipsJSONSeal() {
        let sealString = "2http://test.com978IR_WS_2.19http://localhost/return.phpINTERNETcustomtest"
        let seal = Hex.encode(HMAC.sha256(key: "002001000000001_KEY1", message: sealString))
        #expect(seal == "2442cf7b069bfcaba1f432ebd663d4f57932d0059c117b9cd4466a311c946508")
    }

    @Test func citconStyleSignString() {
        // Expected value computed with `printf '%s' … | sha256sum`.
        let signString =
            "amount=1000&currency=USD&fields=amount,currency,id,reference,status"
            + "&id=2103190000000000000042&reference=order-77&status=succeeded&secret=braintree"
        #expect(SHA2.sha256Hex(signString) == "1b16f6074763270245b1f3665cf642f1836c98c219bb4ee7c8558b6407694684")
        #expect(Hex.encode(SHA2.sha256(signString.utf8)) == SHA2.sha256Hex(signString))
    }
}
