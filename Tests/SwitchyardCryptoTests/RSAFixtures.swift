/// A 2048-bit RSA key pair made with `openssl genrsa -traditional 2048` for tests only (not a secret).
enum RSAFixtures {
    /// PKCS#1 private key (`BEGIN RSA PRIVATE KEY`).
    static let pkcs1PrivateKeyPEM = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEpAIBAAKCAQEA3hBRTnT7CTb1GCdlQebVjji4NHFRLU2MOQjKbmLUsVOUo/+X
        5KRj9XUqW2twMHCkoRMdR4WOR1FJp5zPbF1sjIVDD99Fa7MstAoYjQPEPVoWZyDG
        GszfWREj0Vi3O+sfNulXeoB0g5RfvxAnZKj/DhRpWp/ZZWU11tzTf/i+ayto/ORZ
        Su30GcOT5DA4UnbEmDi2HPVVneEewOE8OBcHWBzdolWOkcdt0ZCFe46uT5m0TT3q
        Hrfd1RbQn1XhpC2QTybbHnYsAkUYANz6eLa/TGVQeN2jmavXzZ9KcNIgHrQ7koh2
        kEK4SwZaJ5OCcQgkbk45O5ikznfmI/9qIO5epQIDAQABAoIBADNSNZxKjF8BkMzz
        g+MicG4VXTsfikmMT9E5nyE6XZoa7TImxsm8lW571N16e9vyGJYyZvSp4OtKFdnz
        M3wBrm3eeZSAPxjIONdmMuzaNz8PpDhS2n4EpcS9oZfHJ1fle9oSvRkueV8UijlL
        yDLrHME6BexAH7vfk30UHZxIlmeJWx9d9/DzLnASanHm3lJ68ymy1YRwLFwBbVGd
        co53K6RDcYbHe/QeGgv34vF/fM2wpNyNPcfgAiVZ4oSsYeSIbU6BTQ0j80xrVEWo
        GzjXloUvihWSSzx8nT2vIRny2OBnZscxfpKDoNXqEISh7K48okzwqX5++OPR8rKe
        mMz8+7kCgYEA/tBDiDYHgc6Slb03Xu88BZu2Qo5/OQngLh4B3VBaXXq6wUofXaEf
        d6D0lFF2ddD+vKgGjrWY9nVQEFY/vKHdEgvFH/PygDLr9Mv9BD7N0vc9/uJSLaJi
        L5W/gU0nuQ1Aq3LJ1Aegupf2vv4NNKiun/H1EoT3PCMA3ouzAL+uqT0CgYEA3xkE
        KSVgn6DzIbMwXje/wL7xzkS6Wzr48bNIs0bQiuSpi7p3YLUPJRQm2OzEb+4Ak4ps
        zs94J18IPEOUAv7V76v0wEi7Cu6CROv6p/nDEuGU8I+c4rqgDSjfKOQu3ZRx1xOT
        LyPoKnjH4C18H6Vu/IrvaPUmrpvo1o+6fZwn0YkCgYAjZar78QV58shKJM7cUT91
        R/w5orHpqoWJ4oE/zTnAYpwu3a0dxJQqeiF/uRFLrIy2iGDg0jk9g25r1o9kFNgw
        +ZGYrrqxNGGyz+OGA3N0KwRhs+7WiAg7tAG2ZJFwE3c4WenPmn+pbBLK1V/gQM6B
        SYtR10bBA9vLDnz/TaFlwQKBgQDWU0IcBTx+HjF0/qBI42Xj1YyXjI87dbwS9xmw
        oSdXR7VZ9xkYXtjd1i4717ofjZYgJ6vAQrA7oqBWxNU8y3Tbe2b2Eukd52ReshVr
        qhYt3Wkocc9WQdPg0JMSxaQAWsvCw5tyfhxcMQxT4V6NSHEHTLITMvCmbkGRXyLZ
        6VqXgQKBgQD0VLA9GCUPuuKbL9XhR/jv5BLKQmV3OmGBqOVL4UBtYfwq/hQUZub8
        iEfuOEIa4jqcXVH3ZelWG+Z+4bHwrpweOVd5IHifCO+WhmiBEP2BcwIKHIdAoJnq
        kCYTp8p+Uif9PXTV51KCbE3CHa1a7bulUQ6crpl956VZndaa1KdslQ==
        -----END RSA PRIVATE KEY-----
        """

    /// The same public key as PKCS#1 (`openssl rsa -RSAPublicKey_out`).
    static let pkcs1PublicKeyPEM = """
        -----BEGIN RSA PUBLIC KEY-----
        MIIBCgKCAQEA3hBRTnT7CTb1GCdlQebVjji4NHFRLU2MOQjKbmLUsVOUo/+X5KRj
        9XUqW2twMHCkoRMdR4WOR1FJp5zPbF1sjIVDD99Fa7MstAoYjQPEPVoWZyDGGszf
        WREj0Vi3O+sfNulXeoB0g5RfvxAnZKj/DhRpWp/ZZWU11tzTf/i+ayto/ORZSu30
        GcOT5DA4UnbEmDi2HPVVneEewOE8OBcHWBzdolWOkcdt0ZCFe46uT5m0TT3qHrfd
        1RbQn1XhpC2QTybbHnYsAkUYANz6eLa/TGVQeN2jmavXzZ9KcNIgHrQ7koh2kEK4
        SwZaJ5OCcQgkbk45O5ikznfmI/9qIO5epQIDAQAB
        -----END RSA PUBLIC KEY-----
        """

    /// The same public key as SubjectPublicKeyInfo (`openssl rsa -pubout`).
    static let spkiPEM = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA3hBRTnT7CTb1GCdlQebV
        jji4NHFRLU2MOQjKbmLUsVOUo/+X5KRj9XUqW2twMHCkoRMdR4WOR1FJp5zPbF1s
        jIVDD99Fa7MstAoYjQPEPVoWZyDGGszfWREj0Vi3O+sfNulXeoB0g5RfvxAnZKj/
        DhRpWp/ZZWU11tzTf/i+ayto/ORZSu30GcOT5DA4UnbEmDi2HPVVneEewOE8OBcH
        WBzdolWOkcdt0ZCFe46uT5m0TT3qHrfd1RbQn1XhpC2QTybbHnYsAkUYANz6eLa/
        TGVQeN2jmavXzZ9KcNIgHrQ7koh2kEK4SwZaJ5OCcQgkbk45O5ikznfmI/9qIO5e
        pQIDAQAB
        -----END PUBLIC KEY-----
        """

    /// An Antom-style content to sign.
    static let message = "POST /ams/api/v1/payments/pay\nSANDBOX_5X00000000000000.1685599933871.{\"amount\":100}"

    /// `openssl dgst -sha256 -sign` of `message` with the private key, base64.
    static let cliSignatureBase64 = """
        BzNgr3uoB1NHEH05O/ZXfz+fly1u5U1GoyqHYdS9cL0cDC9Xu8KiTMNhJXKTnedpYpXqh83m+4Xg\
        srWG//p07LhOSid7RaeRAaKsubdrRpZQB1h2Q+lgv2SXMtJbndFKnzIu8JJYGmva7/oh0JXSPZ5s\
        dkvsqAZQfTEU7miaZ8FcwYx+1jr6Lsfy1zpqB7sYjPMs18IvmDnjwD02AdZ1Rr7E9q+EbjOr/sAm\
        zKtgXlp8JhVB282Ugp6lhCmwP8HB4DZqLRRXxYNy4Xr/Io9ZLjE1QD4hCt8KL7O7+HM+AtxG+U+p\
        qfvKUczzPVLoYHahz5qwzv5NfVvcJtq0W5oRpA==
        """
}
