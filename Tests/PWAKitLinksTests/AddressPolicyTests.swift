import PWAKitLinks
import Testing

@Suite("Which addresses a fetch may reach")
struct AddressPolicyTests {
    static func host(_ text: String) throws -> URLHost { try CanonicalURL("http://\(text)/").host }

    @Test(
        "every special-purpose range is refused",
        arguments: [
            "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.255", "127.0.0.1", "127.255.255.254",
            "169.254.169.254", "169.254.0.1", "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.0.2.1", "192.31.196.1",
            "192.52.193.1", "192.88.99.1", "192.168.1.1", "192.175.48.1", "198.18.0.1", "198.19.255.255", "198.51.100.7",
            "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
            "[::]", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:10.1.2.3]", "[::ffff:169.254.169.254]", "[::127.0.0.1]",
            "[64:ff9b::a9fe:a9fe]", "[64:ff9b:1::1]", "[100::1]", "[2001::1]", "[2001:0:4136:e378::1]", "[2001:2::1]",
            "[2001:db8::1]", "[2002:7f00:1::1]", "[3fff::1]", "[5f00::1]", "[fc00::1]", "[fd00:ec2::254]", "[fe80::1]",
            "[febf::1]", "[fec0::1]", "[ff02::1]", "[1::1]", "[4000::1]",
        ])
    func refused(address: String) throws {
        #expect(AddressPolicy.refusal(try Self.host(address)) != nil, "\(address) was allowed")
    }

    @Test(
        "public unicast is allowed",
        arguments: [
            "1.1.1.1", "8.8.8.8", "93.184.215.14", "100.63.255.255", "100.128.0.1", "172.15.255.255", "172.32.0.1",
            "192.0.3.1", "192.169.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.255", "[2606:4700:4700::1111]",
            "[2a00:1450:4001:81c::200e]", "[::ffff:8.8.8.8]", "[64:ff9b::808:808]", "[2001:200::1]",
        ])
    func allowed(address: String) throws {
        #expect(AddressPolicy.refusal(try Self.host(address)) == nil, "\(address) was refused")
    }

    @Test("names are left to the resolver's answers; the reason names the range")
    func reasons() throws {
        #expect(AddressPolicy.refusal(try Self.host("example.com")) == nil)
        #expect(AddressPolicy.refusal(ipv4: [169, 254, 169, 254])?.contains("metadata") == true)
        #expect(AddressPolicy.refusal(ipv6: Array(repeating: 0, count: 15) + [1]) == "loopback (::1)")
        #expect(AddressPolicy.refusal(ipv4: [1, 2, 3]) != nil)
        #expect(AddressPolicy.refusal(ipv6: [0x20]) != nil)
    }
}
