// A running job's page: follows the job's event stream (server-sent events) and shows each
// citation as it is judged; reloads into the report when the job ends. Text is set with
// textContent only: titles come from papers and are hostile.
(function () {
  var job = document.getElementById('job');
  if (!job || !window.EventSource) { return; }
  var bar = document.getElementById('bar');
  var count = document.getElementById('count');
  var status = document.getElementById('status');
  var list = document.getElementById('events');
  var shown = list.children.length;
  var url = '/api/jobs/' + encodeURIComponent(job.dataset.id) + '/events?from=' + shown;
  var source = new EventSource(url);

  function span(cls, text) {
    var s = document.createElement('span');
    s.className = cls;
    s.textContent = text;
    return s;
  }

  source.addEventListener('progress', function (e) {
    var d = JSON.parse(e.data);
    bar.max = Math.max(d.total, 1);
    bar.value = d.done;
    count.textContent = d.text;  // the server's words: '3 of 16 citations', 'reading the PDF of paper.pdf'
    status.textContent = d.status;
    job.dataset.status = d.status;
  });
  source.addEventListener('citation', function (e) {
    var d = JSON.parse(e.data);
    if (d.n < shown) { return; }
    shown = d.n + 1;
    var k = (d['class'] || '').charAt(0);
    var li = document.createElement('li');
    li.className = 'ev ' + k;
    li.appendChild(span('badge ' + k, d['class']));
    li.appendChild(document.createTextNode(' '));
    li.appendChild(span('codes', d.code));
    li.appendChild(document.createTextNode(' '));
    li.appendChild(span('cid', '[' + d.id + ']'));
    li.appendChild(document.createTextNode(' ' + (d.title || '')));
    list.appendChild(li);
  });
  source.addEventListener('end', function (e) {
    var d = JSON.parse(e.data);
    source.close();
    job.dataset.status = d.status;
    status.textContent = d.status;
    window.location.reload();
  });
  document.documentElement.dataset.live = '1';
})();
