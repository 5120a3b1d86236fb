// The export's HTML (docs/extensions.md § Export): markdown-it's rendering with no raw HTML passed through, the
// convention's tags rebuilt from a closed list, CriticMarkup as <ins>/<del>/<mark>, attachment links pointed at the API.
import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../../domain/document-engine/html.js';

const html = (markdown: string) =>
  markdownToHtml(markdown, { attachmentUrl: (uuid) => `/v1/documents/d/attachments/${uuid}/download` });

describe('export HTML', () => {
  it('renders markdown and keeps exactly the convention tags: <u>, <span data-color>, <mark data-color>', () => {
    expect(
      html(
        '# Title\n\nSome **bold**, <u>under</u>, <span data-color="red">red</span> and <mark data-color="yellow">lit</mark>.',
      ),
    ).toBe(
      '<h1>Title</h1>\n<p>Some <strong>bold</strong>, <u>under</u>, <span data-color="red">red</span> and <mark data-color="yellow">lit</mark>.</p>\n',
    );
  });

  it('writes every other HTML as text, and never a closing tag it did not open', () => {
    expect(html('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
    expect(
      html(
        'a <img src=x onerror=alert(1)> <span data-color="red" onclick="x">b</span> <span data-color="black">c</span> </u>',
      ),
    ).toBe(
      '<p>a &lt;img src=x onerror=alert(1)&gt; &lt;span data-color=&quot;red&quot; onclick=&quot;x&quot;&gt;b&lt;/span&gt; &lt;span data-color=&quot;black&quot;&gt;c&lt;/span&gt; &lt;/u&gt;</p>\n',
    );
    expect(html('[x](javascript:alert(1))')).toBe('<p>[x](javascript:alert(1))</p>\n');
  });

  it('shows suggestions as <del>, <ins> and <mark class="suggestion"> with their ref, block markers as ¶', () => {
    expect(html('The {~~quick~>slow~~}{>>s1<<} fox {--runs--}{>>s2<<} {==far==}{>>s3<<}.')).toBe(
      '<p>The <del class="suggestion" data-ref="s1">quick</del><ins class="suggestion" data-ref="s1">slow</ins> fox ' +
        '<del class="suggestion" data-ref="s2">runs</del> <mark class="suggestion" data-ref="s3">far</mark>.</p>\n',
    );
    expect(html('{++¶++}{>>s4<<}{++New paragraph++}{>>s4<<}')).toBe(
      '<p><ins class="suggestion suggestion-block" data-ref="s4">¶</ins><ins class="suggestion" data-ref="s4">New paragraph</ins></p>\n',
    );
  });

  it('points attachment links and images at the attachment download', () => {
    const uuid = '0b6f4ad2-9b1e-4c3e-8f5e-2a1d3c4b5e6f';
    expect(html(`[report.pdf](attachment:${uuid})\n\n![](attachment:${uuid})`)).toBe(
      `<p><a href="/v1/documents/d/attachments/${uuid}/download">report.pdf</a></p>\n<p><img src="/v1/documents/d/attachments/${uuid}/download" alt="" /></p>\n`,
    );
  });
});
