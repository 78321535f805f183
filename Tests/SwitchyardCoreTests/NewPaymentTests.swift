import Testing

@testable import SwitchyardCore

struct NewPaymentTests {
    func code(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as CoreError {
            return error.code.rawValue
        } catch {
            return "other"
        }
    }

    @Test func acceptsTheSmallestBody() throws {
        let p = try NewPayment(amount: 1234, currency: "USD", country: "US", method: "alipay", reference: "order-1")
        #expect(p.amount == 1234)
    }

    @Test func rejectsBadFieldsWithStableCodes() {
        #expect(
            code { _ = try NewPayment(amount: -1, currency: "USD", country: "US", method: "alipay", reference: "r") }
                == "invalid_amount")
        #expect(
            code { _ = try NewPayment(amount: 0, currency: "USD", country: "US", method: "alipay", reference: "r") }
                == "invalid_amount")
        #expect(
            code { _ = try NewPayment(amount: 1, currency: "XYZ", country: "US", method: "alipay", reference: "r") }
                == "invalid_currency")
        #expect(
            code { _ = try NewPayment(amount: 1, currency: "usd", country: "US", method: "alipay", reference: "r") }
                == "invalid_currency")
        #expect(
            code { _ = try NewPayment(amount: 1, currency: "USD", country: "USA", method: "alipay", reference: "r") }
                == "invalid_country")
        #expect(
            code { _ = try NewPayment(amount: 1, currency: "USD", country: "US", method: "Ali Pay", reference: "r") }
                == "invalid_method")
        #expect(
            code { _ = try NewPayment(amount: 1, currency: "USD", country: "US", method: "alipay", reference: "") }
                == "invalid_reference")
        #expect(
            code {
                _ = try NewPayment(
                    amount: Currency.maximumAmount + 1, currency: "USD", country: "US", method: "alipay", reference: "r"
                )
            } == "invalid_amount")
    }

    @Test func methodMayBeLeftOutOnlyForAStoredPaymentMethod() throws {
        #expect(
            code { _ = try NewPayment(amount: 1, currency: "USD", country: "US", method: nil, reference: "r") }
                == "missing_field")
        let stored = try NewPayment(
            amount: 1, currency: "USD", country: "US", method: nil, reference: "r", paymentMethodId: "pm_1")
        #expect(stored.method == nil)
        #expect(stored.paymentMethodId == "pm_1")
    }

    @Test func currencyExponents() {
        #expect(Currency.named("USD")?.exponent == 2)
        #expect(Currency.named("JPY")?.exponent == 0)
        #expect(Currency.named("KWD")?.exponent == 3)
        #expect(Currency.named("ABC") == nil)
    }
}

struct ReturnURLTests {
    func code(_ url: String) -> String? {
        do {
            _ = try NewPayment(
                amount: 1, currency: "USD", country: "US", method: "alipay", reference: "r", returnURL: url)
            return nil
        } catch let error as CoreError {
            return error.code.rawValue
        } catch {
            return "other"
        }
    }

    @Test func anAbsoluteHTTPURLIsAccepted() {
        #expect(code("https://shop.example/back?order=1#done") == nil)
        #expect(code("http://127.0.0.1:8080/back") == nil)
        #expect(code("HTTPS://shop.example") == nil)
        #expect(code("https://shop.example/" + String(repeating: "a", count: 2048 - 21)) == nil)
    }

    @Test func anythingElseIsInvalidReturnURL() {
        for url in [
            "", "/back", "shop.example/back", "myapp://back", "javascript:alert(1)", "ftp://shop.example/",
            "https://", "https:///path", "https://user:secret@shop.example/", "https://user@shop.example/",
            "https://shop.example/" + String(repeating: "a", count: 2048 - 20), "https://shop example/",
            "https://shop.example/" + String(repeating: "a", count: 60_000),
        ] {
            #expect(code(url) == "invalid_return_url", "\(url.prefix(60))")
        }
    }
}
