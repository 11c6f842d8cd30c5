import Foundation
import Testing

@testable import PWAKitLinks

@Suite("Link previews from page markup")
struct PageMetadataTests {
    static func page() throws -> CanonicalURL { try CanonicalURL("https://news.example.com/2026/11/story.html?id=3") }

    @Test("Open Graph wins over Twitter cards, JSON-LD and the title; relative URLs resolve against the page")
    func openGraph() throws {
        let html = """
            <!DOCTYPE html><html><head>
            <meta charset="utf-8"><title>Fallback &amp; title</title>
            <meta name="description" content="plain description">
            <meta property="og:title" content="  The   Story
              Title ">
            <meta property="og:description" content="What happened, in short &mdash; and why.">
            <meta property="og:site_name" content="Example News">
            <meta property="og:image" content="/img/cover.jpg?w=1200">
            <meta name="twitter:title" content="Twitter title">
            <link rel="canonical" href="https://news.example.com/2026/11/story.html">
            <link rel="amphtml" href="../../amp/story.html"><!-- from /2026/11/: up two folders -->
            <link rel="alternate" type="application/json+oembed" href="/oembed?url=x">
            </head><body><p>…</p></body></html>
            """
        let meta = PageMetadata(html: html, page: try Self.page())
        #expect(meta.title == "The Story Title")
        #expect(meta.description == "What happened, in short — and why.")
        #expect(meta.siteName == "Example News")
        #expect(meta.imageURL == "https://news.example.com/img/cover.jpg?w=1200")
        #expect(meta.canonicalURL == "https://news.example.com/2026/11/story.html")
        #expect(meta.ampURL == "https://news.example.com/amp/story.html")
        #expect(meta.oEmbedURL == "https://news.example.com/oembed?url=x")
    }

    @Test("without Open Graph: Twitter cards, then JSON-LD (in @graph), then <title> and meta description")
    func fallbacks() throws {
        let twitter = PageMetadata(
            html: #"<meta name="twitter:title" content="T"><meta name="twitter:image:src" content="//cdn.example.net/a.png">"#,
            page: try Self.page())
        #expect(twitter.title == "T")
        #expect(twitter.imageURL == "https://cdn.example.net/a.png")
        let jsonLD = PageMetadata(
            html: """
                <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite"},
                {"@type":"NewsArticle","headline":"From JSON-LD","description":"LD description",
                 "image":[{"@type":"ImageObject","url":"https://img.example.com/1.jpg"}],"publisher":{"name":"LD News"}}]}</script>
                <title>Ignored</title>
                """, page: try Self.page())
        #expect(jsonLD.title == "From JSON-LD")
        #expect(jsonLD.description == "LD description")
        #expect(jsonLD.imageURL == "https://img.example.com/1.jpg")
        #expect(jsonLD.siteName == "LD News")
        let plain = PageMetadata(
            html: "<TITLE>Caf&eacute; &#233;&#xE9; &unknown; &#0;</TITLE><META NAME=Description CONTENT='Quiet page'>",
            page: try Self.page())
        #expect(plain.title == "Café éé &unknown; \u{FFFD}")
        #expect(plain.description == "Quiet page")
    }

    @Test("an AMP page: its canonical link names the ordinary page, on another host of the same site")
    func ampPage() throws {
        let html = """
            <!doctype html><html \u{26A1} lang="en"><head><meta charset="utf-8">
            <script async src="https://cdn.ampproject.org/v0.js"></script>
            <title>Harbour Story</title>
            <link rel="canonical" href="http://site.test:8080/story">
            </head><body></body></html>
            """
        let meta = PageMetadata(html: html, page: try CanonicalURL("http://amp.site.test:8080/story.amp"))
        #expect(meta.title == "Harbour Story")
        #expect(meta.canonicalURL == "http://site.test:8080/story")
    }

    @Test("oEmbed comes first when it is not rich")
    func oEmbed() throws {
        var meta = PageMetadata(html: #"<meta property="og:title" content="OG">"#, page: try Self.page())
        let video = Data(
            #"{"type":"video","version":"1.0","title":"A video","provider_name":"Tube","thumbnail_url":"https://i.example.com/t.jpg","html":"<iframe>"}"#
                .utf8)
        #expect(meta.apply(oEmbed: video, page: try Self.page()))
        #expect(meta.title == "A video" && meta.siteName == "Tube" && meta.imageURL == "https://i.example.com/t.jpg")
        var rich = PageMetadata(html: #"<meta property="og:title" content="OG">"#, page: try Self.page())
        #expect(!rich.apply(oEmbed: Data(#"{"type":"rich","title":"Scripted","html":"<script>"}"#.utf8), page: try Self.page()))
        #expect(rich.title == "OG")
        #expect(!rich.apply(oEmbed: Data("not json".utf8), page: try Self.page()))
    }

    @Test("hostile markup: scripts that look like tags, comments, unclosed tags, odd schemes, huge input")
    func hostile() throws {
        let html = """
            <script>var s = "<meta property='og:title' content='from script'>";</script>
            <!-- <meta property="og:title" content="from comment"> -->
            <style>meta{}</style>
            <meta property="og:title" content="real" property="og:title" content="second">
            <meta property="og:image" content="javascript:alert(1)">
            <link rel="canonical" href="data:text/html,hi">
            <title>unclosed
            """
        let meta = PageMetadata(html: html, page: try Self.page())
        #expect(meta.title == "real")
        #expect(meta.imageURL == nil)
        #expect(meta.canonicalURL == nil)
        let huge = String(repeating: "<div a=\"", count: 50_000) + String(repeating: "<", count: 100_000)
        let bounded = PageMetadata(html: huge, page: try Self.page())
        #expect(bounded.title == nil)
    }

    @Test("the tokenizer reads attributes every way HTML writes them, first duplicate winning")
    func tokenizer() {
        let tokens = HTMLTokenizer.tokens(
            #"<A HREF=/x title='t "q"' data-x = "1" hidden data-x="2"></a><br/><img src=a.png/>"#)
        #expect(
            tokens == [
                .start(name: "a", attributes: ["href": "/x", "title": #"t "q""#, "data-x": "1", "hidden": ""]),
                .end(name: "a"), .start(name: "br", attributes: [:]), .start(name: "img", attributes: ["src": "a.png/"]),
            ])
        #expect(
            HTMLTokenizer.tokens("<title>a<b>c</TITLE >x") == [
                .start(name: "title", attributes: [:]), .text(element: "title", text: "a<b>c"),
            ])
    }
}
